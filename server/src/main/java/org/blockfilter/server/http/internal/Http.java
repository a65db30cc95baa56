package org.blockfilter.server.http.internal;

import io.javalin.http.Context;
import java.util.function.Supplier;
import org.bitcoinj.base.Sha256Hash;

/**
 * Request parsing and response writing shared by the controllers: representation choice,
 * parameter validation (typed 400s), and a single way to send a body so that bytes are counted.
 */
public final class Http {
    public static final String OCTET_STREAM = "application/octet-stream";
    public static final String JSON = "application/json";
    /** Request attribute: body bytes sent, read by the metrics hook. */
    public static final String SENT_BYTES = "blockfilter.sentBytes";

    private Http() {}

    /** Binary if the client asks for {@code application/octet-stream}, JSON otherwise. */
    public static boolean wantsBinary(Context ctx) {
        String accept = ctx.header("Accept");
        return accept != null && accept.contains(OCTET_STREAM);
    }

    public static void send(Context ctx, int status, String contentType, byte[] body, String cacheControl) {
        ctx.status(status);
        ctx.contentType(contentType);
        ctx.header("Cache-Control", cacheControl);
        ctx.header("Vary", "Accept, Accept-Encoding");
        if (OCTET_STREAM.equals(contentType)) {
            ctx.disableCompression(); // filters are already dense; gzip only costs CPU
        }
        ctx.attribute(SENT_BYTES, (long) body.length);
        ctx.result(body);
    }

    /** JSON or binary, as the client asked; only the chosen one is encoded. */
    public static void sendEither(Context ctx, Supplier<byte[]> json, Supplier<byte[]> binary, String cacheControl) {
        if (wantsBinary(ctx)) {
            send(ctx, 200, OCTET_STREAM, binary.get(), cacheControl);
        } else {
            send(ctx, 200, JSON, json.get(), cacheControl);
        }
    }

    public static String requiredQuery(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isEmpty()) {
            throw new BadRequestException("missing_parameter", "query parameter " + name + " is required");
        }
        return v;
    }

    /** A height or count: decimal digits, 0 .. Integer.MAX_VALUE. */
    public static int nonNegativeInt(String name, String raw) {
        if (raw.startsWith("-") && raw.length() > 1 && raw.substring(1).chars().allMatch(Character::isDigit)) {
            throw new BadRequestException("bad_" + name, name + " must not be negative: " + raw);
        }
        if (raw.isEmpty() || !raw.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new BadRequestException("bad_" + name, name + " must be a decimal integer: " + abbreviate(raw));
        }
        String digits = raw.replaceFirst("^0+(?=.)", "");
        if (digits.length() > 10 || Long.parseLong(digits) > Integer.MAX_VALUE) {
            throw new BadRequestException("bad_" + name, name + " is too large: " + abbreviate(raw));
        }
        return Integer.parseInt(digits);
    }

    public static Sha256Hash hash(String name, String raw) {
        Sha256Hash hash = HashHex.parseHash(raw);
        if (hash == null) {
            throw new BadRequestException(
                    "bad_hash",
                    name + " must be 64 hex digits (display order), got " + raw.length() + " characters: "
                            + abbreviate(raw));
        }
        return hash;
    }

    static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    /** Whether an If-None-Match header matches the entity tag (strong or weak comparison). */
    public static boolean matchesETag(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String candidate : ifNoneMatch.split(",")) {
            String c = candidate.trim();
            if (c.startsWith("W/")) {
                c = c.substring(2);
            }
            if (c.equals("*") || c.equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
