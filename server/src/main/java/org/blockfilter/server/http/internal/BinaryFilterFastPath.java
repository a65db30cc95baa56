package org.blockfilter.server.http.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.index.FilterIndexReader;
import org.blockfilter.server.index.FilterView;
import org.blockfilter.server.store.StoreException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The answer light clients fetch most, served by Jetty directly in front of Javalin: {@code GET
 * /api/v1/filters/<block hash>} with {@code Accept: application/octet-stream}, no query and
 * nothing else to negotiate (no {@code Origin}, no {@code If-None-Match}), found in the index. Its
 * bytes and headers are those of the Javalin route ({@link ApiController#filter}); the hash is
 * parsed by the route's own parser ({@link HashHex#parseHash}). A damaged read is answered here
 * as the route's error mapping answers it ({@code 503 index_damaged}), so that it is read and
 * counted once; everything else, other errors included, goes on to Javalin, which answers as it
 * always has. Ranges are the route's ({@link Http#streamRange}): at ~20 MB per answer Javalin's
 * per-request work does not count. Answered requests are counted in the same route metrics.
 * Thread-safe; holds no per-request state.
 */
public final class BinaryFilterFastPath extends Handler.Wrapper {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final String FILTERS = "/api/v1/filters";
    private static final String FILTER_PREFIX = FILTERS + "/";
    /** The route templates of the Javalin routes, as {@link RestMetrics} records them. */
    private static final String SINGLE_ROUTE = FILTER_PREFIX + "{hashOrHeight}";

    private static final HttpField CONTENT_TYPE = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, Http.OCTET_STREAM);
    private static final HttpField VARY = new PreEncodedHttpField(HttpHeader.VARY, "Accept, Accept-Encoding");
    private static final HttpField JSON = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, Http.JSON);
    private static final HttpField NO_STORE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, CachePolicy.NO_STORE);
    private static final HttpField IMMUTABLE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, CachePolicy.IMMUTABLE);

    private final FilterIndexReader index;
    private final CachePolicy cache;
    private final RestMetrics metrics;

    public BinaryFilterFastPath(FilterIndexReader index, CachePolicy cache, RestMetrics metrics) {
        this.index = Objects.requireNonNull(index, "index");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (plain(request)) {
            String path = request.getHttpURI().getPath();
            if (request.getHttpURI().getQuery() == null
                    && path.length() == FILTER_PREFIX.length() + 64
                    && path.startsWith(FILTER_PREFIX)) {
                Sha256Hash hash = HashHex.parseHash(path.substring(FILTER_PREFIX.length()));
                if (hash != null && single(hash, response, callback)) {
                    return true;
                }
            }
        }
        return super.handle(request, response, callback);
    }

    /** A GET for binary with nothing the Javalin routes would treat differently. */
    private static boolean plain(Request request) {
        HttpFields h = request.getHeaders();
        String accept = h.get(HttpHeader.ACCEPT);
        return HttpMethod.GET.is(request.getMethod())
                && accept != null
                && accept.contains(Http.OCTET_STREAM)
                && !h.contains(HttpHeader.ORIGIN)
                && !h.contains(HttpHeader.IF_NONE_MATCH);
    }

    private boolean single(Sha256Hash hash, Response response, Callback callback) {
        long t0 = System.nanoTime();
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        Optional<FilterView> found;
        try {
            found = index.filterView(hash);
        } catch (StoreException e) {
            if (!e.damaged()) {
                return false; // Javalin reads again, logs and maps the error
            }
            int length = damaged(e, response, callback);
            metrics.request(
                    "GET", SINGLE_ROUTE, 503, System.nanoTime() - t0, length, THREADS.getCurrentThreadCpuTime() - cpu0);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
        if (found.isEmpty()) {
            return false;
        }
        FilterView f = found.get();
        ByteBuffer body = f.filter();
        int length = body.remaining();
        HttpFields.Mutable h = response.getHeaders();
        h.put(CONTENT_TYPE);
        h.put(HttpHeader.ETAG, '"' + f.filterHash().toString() + '"');
        h.put(cacheControl(f.active() ? f.height() : -1));
        h.put(VARY);
        h.put(HttpHeader.CONTENT_LENGTH, length);
        response.setStatus(200);
        response.write(true, body, callback);
        metrics.request(
                "GET", SINGLE_ROUTE, 200, System.nanoTime() - t0, length, THREADS.getCurrentThreadCpuTime() - cpu0);
        return true;
    }

    /** The route's answer to damage (RestServer's error mapping): 503 {@code index_damaged}. */
    private static int damaged(StoreException e, Response response, Callback callback) {
        byte[] body = Representations.errorJson(503, Http.INDEX_DAMAGED, e.getMessage());
        HttpFields.Mutable h = response.getHeaders();
        h.put(JSON);
        h.put(NO_STORE);
        h.put(VARY);
        h.put(HttpHeader.CONTENT_LENGTH, body.length);
        response.setStatus(503);
        response.write(true, ByteBuffer.wrap(body), callback);
        return body.length;
    }

    private HttpField cacheControl(int height) {
        String value = cache.forHeight(height);
        return value.equals(CachePolicy.IMMUTABLE) ? IMMUTABLE : new HttpField(HttpHeader.CACHE_CONTROL, value);
    }
}
