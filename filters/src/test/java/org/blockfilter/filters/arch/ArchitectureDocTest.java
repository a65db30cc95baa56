package org.blockfilter.filters.arch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every class docs/architecture.md names in backticks ({@code Class}, {@code pkg.Class}, {@code Class.method}) is a
 * main source file of the server, wallet (library or command line), bitcoinj adapter or filters module, in that package, and every method it names is declared
 * there, so the page cannot drift from the code.
 */
class ArchitectureDocTest {
    private static final Path ROOT = Path.of("..");
    /** Each module's folder and its root package's folder, whose classes the page may name. */
    private static final List<String> MODULES = List.of(
            "server/src/main/java/org/blockfilter/server",
            "wallet/src/main/java/org/blockfilter/wallet",
            "wallet/cli/src/main/java/org/blockfilter/wallet",
            "wallet/bitcoinj/src/main/java/org/blockfilter/bitcoinj",
            "filters/src/main/java/org/blockfilter/filters");
    /** A capitalised identifier, optionally after lower-case package parts and before one member name. */
    private static final Pattern NAME =
            Pattern.compile("^((?:[a-z][a-z0-9]*\\.)*)([A-Z][A-Za-z0-9]*)(?:\\.([a-z][A-Za-z0-9]*))?$");

    /** Simple class name to the paths of its source files, relative to the modules' root packages. */
    private static Map<String, List<Path>> sources() throws IOException {
        Map<String, List<Path>> byName = new TreeMap<>();
        for (String module : MODULES) {
            Path base = ROOT.resolve(module);
            try (Stream<Path> files = Files.walk(base)) {
                files.filter(p -> p.toString().endsWith(".java"))
                        .forEach(p -> byName.computeIfAbsent(
                                        p.getFileName().toString().replace(".java", ""), k -> new ArrayList<>())
                                .add(p));
            }
        }
        return byName;
    }

    @Test
    void everyClassAndMethodTheArchitecturePageNamesExists() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/architecture.md"));
        Map<String, List<Path>> sources = sources();
        Matcher code = Pattern.compile("`([^`\\s]+)`").matcher(doc);
        int checked = 0;
        List<String> missing = new ArrayList<>();
        while (code.find()) {
            Matcher m = NAME.matcher(code.group(1));
            if (!m.matches() || m.group(2).equals(m.group(2).toUpperCase(java.util.Locale.ROOT))) {
                // not a name, or a constant such as LIED
                continue;
            }
            String pkg = m.group(1).replace('.', '/');
            String cls = m.group(2);
            String member = m.group(3);
            List<Path> files = sources.getOrDefault(cls, List.of()).stream()
                    .filter(p -> p.getParent()
                            .toString()
                            .replace('\\', '/')
                            .endsWith(pkg.isEmpty() ? "" : "/" + pkg.substring(0, pkg.length() - 1)))
                    .toList();
            checked++;
            if (files.isEmpty()) {
                missing.add(code.group(1) + " (no such class)");
            } else if (member != null && !declares(files, member)) {
                missing.add(code.group(1) + " (no such method)");
            }
        }
        assertTrue(checked >= 40, "only " + checked + " names found in docs/architecture.md");
        assertTrue(missing.isEmpty(), "docs/architecture.md names what the code lacks: " + missing);
    }

    private static boolean declares(List<Path> files, String member) throws IOException {
        for (Path f : files) {
            if (Pattern.compile("\\b" + member + "\\s*\\(")
                    .matcher(Files.readString(f))
                    .find()) {
                return true;
            }
        }
        return false;
    }
}
