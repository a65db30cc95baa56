package org.blockfilter.privacylab.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplateTest {
    private static final Template.Sections SECTIONS = Template.load("template-test.txt");

    @Test
    void fillsEveryPlaceholderAndTrimsTheSectionsTrailingBlankLines() {
        assertEquals(
                "Hello Alice, 3 new $1 filters.",
                SECTIONS.get("greeting").render(Map.of("who", "Alice", "n", 3, "what", "$1 filters")));
        assertEquals(List.of("first 0.5", "second"), SECTIONS.get("list").lines(Map.of("a", 0.5)));
        assertEquals("No placeholders here.", SECTIONS.get("plain").render());
    }

    @Test
    void aPlaceholderWithoutAValueIsAnError() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> SECTIONS.get("greeting").render(Map.of("who", "Alice")));
        assertEquals("template-test.txt#greeting: no value for [n, what]", e.getMessage());
    }

    @Test
    void aValueWithoutAPlaceholderIsAnError() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> SECTIONS.get("plain").render(Map.of("extra", 1)));
        assertEquals("template-test.txt#plain: no placeholder for [extra]", e.getMessage());
        IllegalArgumentException both = assertThrows(
                IllegalArgumentException.class, () -> SECTIONS.get("list").render(Map.of("b", 1)));
        assertEquals("template-test.txt#list: no value for [a]; no placeholder for [b]", both.getMessage());
    }

    @Test
    void aNullValueIsAnError() {
        Map<String, Object> values = new HashMap<>();
        values.put("a", null);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> SECTIONS.get("list").render(values));
        assertEquals("template-test.txt#list: the value of a is null", e.getMessage());
    }

    @Test
    void badTemplatesAreRefusedWhenLoaded() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SECTIONS.get("nosuch"))
                .getMessage()
                .contains("has no section nosuch"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Template.load("no-such-file.txt"))
                .getMessage()
                .contains("no template resource no-such-file.txt"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Template.load("template-before-section.txt"))
                .getMessage()
                .contains("line 1: text before the first"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Template.load("template-twice.txt"))
                .getMessage()
                .contains("section s appears twice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Template.of("t", "a {{bad name}} b"))
                .getMessage()
                .contains("t: a '{{' or '}}' that is not a placeholder"));
    }
}
