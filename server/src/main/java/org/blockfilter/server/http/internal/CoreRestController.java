package org.blockfilter.server.http.internal;

import io.javalin.http.Context;
import java.util.Objects;

/** Handlers of the Bitcoin Core-compatible {@code /rest/blockfilter*} endpoints. */
public final class CoreRestController {
    public static final String FILTER_PREFIX = "/rest/blockfilter/";
    public static final String HEADERS_PREFIX = "/rest/blockfilterheaders/";

    private final CoreRest core;
    private final CachePolicy cache;

    public CoreRestController(CoreRest core, CachePolicy cache) {
        this.core = Objects.requireNonNull(core, "core");
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    public void blockFilter(Context ctx) {
        send(ctx, core.blockFilter(uriPart(ctx, FILTER_PREFIX)));
    }

    public void blockFilterHeaders(Context ctx) {
        // A count the decoder could not read (count=%ZZ) is passed raw, so Core's check rejects it.
        String count = ctx.queryParam("count");
        if (count == null) {
            count = PercentEscapes.rawQueryValue(ctx.queryString(), "count");
        }
        send(ctx, core.blockFilterHeaders(uriPart(ctx, HEADERS_PREFIX), count));
    }

    /** The path after the prefix, undecoded, as Core's HTTP server hands it to its handlers. */
    private static String uriPart(Context ctx, String prefix) {
        String uri = ctx.req().getRequestURI();
        return uri.length() >= prefix.length() ? uri.substring(prefix.length()) : "";
    }

    private void send(Context ctx, CoreRest.Response r) {
        Http.send(ctx, 200, r.contentType(), r.body(), cache.forHeight(r.height()));
    }
}
