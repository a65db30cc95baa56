package org.blockfilter.server.http.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The errors Jetty answers itself, before a request reaches the router, in the API's one JSON
 * error shape instead of Jetty's HTML page; on the Core-compatible {@code /rest/} routes in plain
 * text, as Core answers errors. A request target Jetty cannot parse at all (a path with {@code
 * %ZZ} or a trailing {@code %}) leaves no request and no path: it is a 400 {@code bad_request} in
 * JSON whatever the route. Stateless and thread-safe.
 */
public final class JettyErrorPages extends ErrorHandler {
    @Override
    protected void generateResponse(
            Request request, Response response, int status, String message, Throwable cause, Callback callback)
            throws IOException {
        // A request line Jetty could not parse (a path with %ZZ) comes with a placeholder URI.
        String path = cause instanceof HttpException ? "" : rawPath(request);
        String reason = message == null || message.isBlank() ? HttpStatus.getMessage(status) : message;
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        if (path.startsWith("/rest/")) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            response.write(true, ByteBuffer.wrap((reason + "\r\n").getBytes(StandardCharsets.UTF_8)), callback);
            return;
        }
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Http.JSON);
        response.write(true, ByteBuffer.wrap(body(status, path, reason)), callback);
    }

    /** Errors found while parsing the request line or headers, with no request to speak of. */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, Http.JSON));
        fields.put(new HttpField(HttpHeader.CACHE_CONTROL, "no-store"));
        return ByteBuffer.wrap(body(status, "", reason == null ? HttpStatus.getMessage(status) : reason));
    }

    private static byte[] body(int status, String path, String reason) {
        if (status == 400 && path.isEmpty()) {
            // Jetty could not parse the request target, so there is no path to route by.
            return Representations.errorJson(
                    400,
                    "bad_request",
                    "the request could not be parsed (a malformed %-escape in the path, a bad request line or"
                            + " bad headers): " + reason);
        }
        if (status == 400 && PercentEscapes.malformed(path)) {
            return Representations.errorJson(
                    400,
                    PercentEscapes.codeForPath(path),
                    "the path has a malformed %-escape: " + Http.abbreviate(path));
        }
        return Representations.errorJson(status, codeOf(status), reason);
    }

    /** The codes of the router's own errors, the same for errors Jetty answers. */
    public static String codeOf(int status) {
        return switch (status) {
            case 404 -> "no_such_route";
            case 405 -> "method_not_allowed";
            case 413 -> "body_too_large";
            default -> "http_" + status;
        };
    }

    private static String rawPath(Request request) {
        try {
            String path = request.getHttpURI().getPath();
            return path == null ? "" : path;
        } catch (RuntimeException e) {
            return "";
        }
    }
}
