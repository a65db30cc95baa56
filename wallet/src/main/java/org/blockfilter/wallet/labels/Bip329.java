package org.blockfilter.wallet.labels;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * BIP 329's export format: one JSON object per line with {@code type}, {@code ref}, optional
 * {@code label}, {@code origin} and (outputs) {@code spendable}. Reading is strict: a line that is
 * not a JSON object, or names an unknown type or a malformed reference, is an error naming the line.
 * Stateless.
 */
public final class Bip329 {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Bip329() {}

    /** The labels as JSON lines, one per label, each ending in a newline. */
    public static String write(List<Labels.Label> labels) {
        StringBuilder b = new StringBuilder();
        for (Labels.Label l : labels) {
            ObjectNode o = JSON.createObjectNode();
            o.put("type", l.type());
            o.put("ref", l.ref());
            if (l.label() != null) {
                o.put("label", l.label());
            }
            if (l.spendable() != null) {
                o.put("spendable", l.spendable());
            }
            b.append(o).append('\n');
        }
        return b.toString();
    }

    /** The labels of a BIP 329 export; blank lines are skipped; {@code origin} is read and not kept. */
    public static List<Labels.Label> read(String text) {
        List<Labels.Label> out = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            int n = i + 1;
            JsonNode o;
            try {
                o = JSON.readTree(line);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("label line " + n + " is not JSON: " + e.getOriginalMessage(), e);
            }
            if (o == null || !o.isObject()) {
                throw new IllegalArgumentException("label line " + n + " is not a JSON object");
            }
            String type = text(o, "type", n, true);
            String ref = text(o, "ref", n, true);
            String label = text(o, "label", n, false);
            Boolean spendable = null;
            if (o.has("spendable")) {
                if (!o.get("spendable").isBoolean()) {
                    throw new IllegalArgumentException("label line " + n + ": 'spendable' must be true or false");
                }
                spendable = o.get("spendable").booleanValue();
            }
            try {
                Labels.check(type, ref);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("label line " + n + ": " + e.getMessage(), e);
            }
            out.add(new Labels.Label(type, ref, label, spendable));
        }
        return out;
    }

    private static String text(JsonNode o, String field, int line, boolean required) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new IllegalArgumentException("label line " + line + " has no '" + field + "'");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("label line " + line + ": '" + field + "' must be a string");
        }
        return v.textValue();
    }
}
