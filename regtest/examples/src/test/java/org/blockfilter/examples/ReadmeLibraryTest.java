package org.blockfilter.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's "Use as a library" section cannot drift from the code: each Java block is, line for line (indentation
 * aside), part of the example file linked just before it, every example file is shown, and the dependency snippet
 * names artifacts this build produces, at its version.
 */
class ReadmeLibraryTest {
    private static final Path ROOT = Path.of("../..");
    private static final Path EXAMPLES = Path.of("src/main/java/org/blockfilter/examples");

    private static String section() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("## Use as a library");
        assertTrue(start >= 0, "README has a \"Use as a library\" section");
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    private static List<String> stripped(String text) {
        return text.lines().map(String::strip).toList();
    }

    @Test
    void everyJavaBlockIsPartOfTheExampleItLinks() throws IOException {
        String section = section();
        Matcher block = Pattern.compile(
                        "\\(regtest/examples/src/main/java/org/blockfilter/examples/(\\w+\\.java)\\)"
                                + "(?:(?!```).)*?```java\\n(.*?)```",
                        Pattern.DOTALL)
                .matcher(section);
        List<String> shown = new ArrayList<>();
        while (block.find()) {
            String file = block.group(1);
            List<String> source = stripped(Files.readString(EXAMPLES.resolve(file)));
            List<String> snippet = stripped(block.group(2));
            assertTrue(snippet.size() > 5, file + ": the README shows the example's code");
            assertTrue(
                    java.util.Collections.indexOfSubList(source, snippet) >= 0,
                    "README's block for " + file + " is not, line for line, in " + EXAMPLES.resolve(file)
                            + "; copy the method from the file:\n" + block.group(2));
            shown.add(file);
        }
        List<String> examples;
        try (var files = Files.list(EXAMPLES)) {
            examples = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".java") && !n.equals("package-info.java"))
                    .sorted()
                    .toList();
        }
        assertFalse(examples.isEmpty());
        assertEquals(examples, shown.stream().sorted().toList(), "every example is shown in the README");
    }

    @Test
    void theDependencySnippetNamesThisBuildsArtifactsAndVersion() throws IOException {
        String section = section();
        Matcher xml = Pattern.compile("```xml\\n(.*?)```", Pattern.DOTALL).matcher(section);
        assertTrue(xml.find(), "the section has the dependency snippet");
        String snippet = xml.group(1);
        String parent = Files.readString(ROOT.resolve("pom.xml"));
        assertTrue(snippet.contains("<groupId>" + tag(parent, "groupId") + "</groupId>"), snippet);
        assertTrue(snippet.contains("<version>" + tag(parent, "version") + "</version>"), snippet);
        Matcher artifacts = Pattern.compile("blockfilter-[a-z]+").matcher(snippet);
        int named = 0;
        while (artifacts.find()) {
            String artifact = artifacts.group();
            String module = artifact.substring("blockfilter-".length());
            assertTrue(
                    Files.readString(ROOT.resolve(module).resolve("pom.xml"))
                            .contains("<artifactId>" + artifact + "</artifactId>"),
                    artifact + " is the artifactId of module " + module);
            named++;
        }
        assertTrue(named >= 2, "the snippet names the wallet and filters artifacts: " + snippet);
    }

    /** The first {@code <tag>} of the parent POM, which has no {@code <parent>}: the project's own. */
    private static String tag(String pom, String tag) {
        Matcher m = Pattern.compile("<" + tag + ">([^<]+)</" + tag + ">").matcher(pom);
        assertTrue(m.find(), tag);
        return m.group(1);
    }
}
