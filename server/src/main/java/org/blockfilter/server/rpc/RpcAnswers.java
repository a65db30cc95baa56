package org.blockfilter.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.bitcoinj.base.Sha256Hash;

/**
 * Checks the type and shape of each field of a node's answer that the server uses, before it is
 * used. A field of the wrong shape is an {@link RpcException} (code {@link RpcException#TRANSPORT},
 * as for an answer that cannot be read) naming the call, the field, what was expected and what came
 * back, so the indexer retries and the REST layer answers 503 instead of failing on it. Stateless.
 */
final class RpcAnswers {
    private static final HexFormat HEX = HexFormat.of();
    private static final Pattern HASH = Pattern.compile("[0-9a-fA-F]{64}");
    private static final int SHOWN = 60;

    private RpcAnswers() {}

    static RpcException invalid(String method, String field, String expected, JsonNode got) {
        return new RpcException(
                method,
                RpcException.TRANSPORT,
                "invalid answer from the node: " + field + " must be " + expected + ", got " + describe(got),
                null);
    }

    /** A 64-hex-digit hash in display order, as RPC gives block hashes and txids. */
    static Sha256Hash hash(String method, String field, JsonNode value) {
        if (value == null || !value.isTextual() || !HASH.matcher(value.asText()).matches()) {
            throw invalid(method, field, "a 64-hex-digit hash", value);
        }
        return Sha256Hash.wrap(value.asText());
    }

    /** A JSON integer in 0..2^31-1. */
    static int nonNegativeInt(String method, String field, JsonNode value) {
        if (value == null || !value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() < 0) {
            throw invalid(method, field, "an integer in 0..2147483647", value);
        }
        return value.asInt();
    }

    /** A finite JSON number above zero. */
    static double positiveNumber(String method, String field, JsonNode value) {
        if (value == null || !value.isNumber() || !(value.asDouble() > 0) || Double.isInfinite(value.asDouble())) {
            throw invalid(method, field, "a positive number", value);
        }
        return value.asDouble();
    }

    /**
     * The message of a JSON-RPC error object: its {@code message} when that is a non-empty string,
     * else the whole object (a message of another type, or none, is still shown, never dropped).
     */
    static String errorMessage(JsonNode error) {
        JsonNode message = error.get("message");
        if (message != null && message.isTextual() && !message.asText().isEmpty()) {
            return message.asText();
        }
        return "error object " + shown(error.toString());
    }

    /** A node's text cut to a length fit for an answer of ours. */
    static String shown(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    /** A non-empty string of even length made of hex digits. */
    static byte[] hex(String method, String field, JsonNode value) {
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw invalid(method, field, "a non-empty hex string", value);
        }
        try {
            return HEX.parseHex(value.asText());
        } catch (IllegalArgumentException e) {
            throw invalid(method, field, "a hex string (an even number of hex digits)", value);
        }
    }

    /** A JSON object. */
    static JsonNode object(String method, String field, JsonNode value) {
        if (value == null || !value.isObject()) {
            throw invalid(method, field, "an object", value);
        }
        return value;
    }

    /** A string matching {@code shape}, described as {@code expected}. */
    static String text(String method, String field, JsonNode value, Pattern shape, String expected) {
        if (value == null
                || !value.isTextual()
                || !shape.matcher(value.asText()).matches()) {
            throw invalid(method, field, expected, value);
        }
        return value.asText();
    }

    /** What a JSON value is, with its start, for error messages. */
    static String describe(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "nothing";
        }
        String kind = switch (value.getNodeType()) {
            case OBJECT, POJO -> "an object ";
            case ARRAY -> "an array ";
            case STRING -> "a string of " + value.asText().length() + " characters ";
            case NUMBER -> "a number ";
            case BOOLEAN -> "a boolean ";
            case NULL -> "null";
            default -> value.getNodeType().toString().toLowerCase(java.util.Locale.ROOT) + " ";
        };
        if (value.isNull()) {
            return kind;
        }
        String text = value.toString();
        return kind + (text.length() <= SHOWN ? text : text.substring(0, SHOWN) + "...");
    }
}
