package org.blockfilter.privacylab.internal.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A piece of report prose with named placeholders {@code {{name}}}, filled from a map of values computed in Java.
 * Rendering is strict: a placeholder without a value and a value without a placeholder are both errors, so prose
 * and code cannot drift apart silently. Values are written with {@link String#valueOf(Object)}, as string
 * concatenation writes them. Immutable.
 *
 * <p>Templates come from resource files of this package holding named sections, each introduced by a line
 * {@code === name ===}; the section's text runs to the next such line, without its trailing blank lines. A section
 * used as a bullet list has one item per line ({@link #lines}).
 */
public final class Template {
    private static final Pattern SECTION = Pattern.compile("^=== ([A-Za-z0-9_.-]+) ===$");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Za-z0-9_]+)}}");

    private final String name;
    private final String text;
    private final Set<String> placeholders;

    private Template(String name, String text) {
        this.name = name;
        this.text = text;
        Set<String> found = new LinkedHashSet<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        String rest = PLACEHOLDER.matcher(text).replaceAll("");
        if (rest.contains("{{") || rest.contains("}}")) {
            throw new IllegalArgumentException(
                    name + ": a '{{' or '}}' that is not a placeholder {{name}} (names are letters, digits and _)");
        }
        this.placeholders = Set.copyOf(found);
    }

    /** A template from text; {@code name} is what errors call it. */
    public static Template of(String name, String text) {
        return new Template(name, text);
    }

    /**
     * The sections of resource {@code resource} of this package, by name.
     *
     * @throws IllegalArgumentException if the resource is missing, has text before its first section, or names a
     *     section twice
     */
    public static Sections load(String resource) {
        String all;
        try (InputStream in = Template.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no template resource " + resource + " next to " + Template.class);
            }
            all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Template> sections = new LinkedHashMap<>();
        String current = null;
        List<String> lines = new ArrayList<>();
        int lineNo = 0;
        for (String line : (all + "\n=== end-of-file ===").split("\n", -1)) {
            lineNo++;
            Matcher m = SECTION.matcher(line);
            if (!m.matches()) {
                if (current == null && !line.isBlank()) {
                    throw new IllegalArgumentException(
                            resource + " line " + lineNo + ": text before the first '=== name ===' line");
                }
                lines.add(line);
                continue;
            }
            if (current != null) {
                while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
                    lines.remove(lines.size() - 1);
                }
                String full = resource + "#" + current;
                if (sections.put(current, new Template(full, String.join("\n", lines))) != null) {
                    throw new IllegalArgumentException(resource + ": section " + current + " appears twice");
                }
            }
            current = m.group(1);
            lines.clear();
        }
        return new Sections(resource, sections);
    }

    /** The placeholders the text names. */
    public Set<String> placeholders() {
        return placeholders;
    }

    /**
     * The text with every placeholder replaced by its value.
     *
     * @throws IllegalArgumentException naming every placeholder without a value and every value without a
     *     placeholder, or a placeholder whose value is null
     */
    public String render(Map<String, ?> values) {
        Set<String> missing = new TreeSet<>(placeholders);
        missing.removeAll(values.keySet());
        Set<String> unused = new TreeSet<>(values.keySet());
        unused.removeAll(placeholders);
        if (!missing.isEmpty() || !unused.isEmpty()) {
            throw new IllegalArgumentException(name + ": "
                    + (missing.isEmpty() ? "" : "no value for " + missing + (unused.isEmpty() ? "" : "; "))
                    + (unused.isEmpty() ? "" : "no placeholder for " + unused));
        }
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Object v = values.get(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException(name + ": the value of " + m.group(1) + " is null");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(String.valueOf(v)));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** {@link #render} of a template without placeholders. */
    public String render() {
        return render(Map.of());
    }

    /** The rendered text's lines: the items of a bullet list. */
    public List<String> lines(Map<String, ?> values) {
        return List.of(render(values).split("\n", -1));
    }

    /** The named sections of one resource file. Immutable. */
    public static final class Sections {
        private final String resource;
        private final Map<String, Template> byName;

        private Sections(String resource, Map<String, Template> byName) {
            this.resource = resource;
            this.byName = Map.copyOf(byName);
        }

        /**
         * Section {@code name}.
         *
         * @throws IllegalArgumentException if the file has no such section
         */
        public Template get(String name) {
            Template t = byName.get(name);
            if (t == null) {
                throw new IllegalArgumentException(
                        resource + " has no section " + name + " (it has " + new TreeSet<>(byName.keySet()) + ")");
            }
            return t;
        }
    }
}
