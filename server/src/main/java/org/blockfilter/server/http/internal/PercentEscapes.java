package org.blockfilter.server.http.internal;

import java.util.Map;

/**
 * Checks the raw (undecoded) request target for malformed {@code %} escapes, which the router
 * would otherwise turn into a 500 (path parameters) or silently drop (query parameters). A
 * malformed escape is a {@code %} not followed by two hex digits ({@code %u0031}, {@code %ZZ},
 * a trailing {@code %}). The error code is the one the API uses for the parameter that carries
 * it, so that {@code stop_hash=%ZZ} is a {@code bad_hash} like any other malformed hash.
 * Stateless.
 */
public final class PercentEscapes {
    private static final Map<String, String> QUERY_CODES = Map.of(
            "start_height", "bad_start_height",
            "stop_hash", "bad_hash",
            "count", "bad_count");

    private PercentEscapes() {}

    /** Whether {@code raw} holds a {@code %} that is not followed by two hex digits. */
    public static boolean malformed(String raw) {
        if (raw == null) {
            return false;
        }
        for (int i = raw.indexOf('%'); i >= 0; i = raw.indexOf('%', i + 1)) {
            if (i + 2 >= raw.length() || !isHex(raw.charAt(i + 1)) || !isHex(raw.charAt(i + 2))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** The error code for a malformed escape in the path: the code of the route's path parameter. */
    public static String codeForPath(String rawPath) {
        if (rawPath != null && rawPath.startsWith("/api/v1/filters/")) {
            return "bad_hash_or_height";
        }
        if (rawPath != null && rawPath.startsWith("/api/v1/blocks/")) {
            return "bad_hash";
        }
        return "bad_escape";
    }

    /**
     * Rejects a request to our API whose path or query has a malformed escape.
     *
     * @throws BadRequestException naming the parameter and quoting the raw text
     */
    public static void check(String rawPath, String rawQuery) {
        if (malformed(rawPath)) {
            throw new BadRequestException(
                    codeForPath(rawPath), "the path has a malformed %-escape: " + Http.abbreviate(rawPath));
        }
        if (rawQuery == null) {
            return;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            if (malformed(pair)) {
                throw new BadRequestException(
                        malformed(name) ? "bad_escape" : QUERY_CODES.getOrDefault(name, "bad_escape"),
                        "query parameter " + Http.abbreviate(name) + " has a malformed %-escape: "
                                + Http.abbreviate(pair));
            }
        }
    }

    /** The raw value of query parameter {@code name}, or null (for values the decoder dropped). */
    public static String rawQueryValue(String rawQuery, String name) {
        if (rawQuery == null) {
            return null;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.startsWith(name + "=")) {
                return pair.substring(name.length() + 1);
            }
        }
        return null;
    }
}
