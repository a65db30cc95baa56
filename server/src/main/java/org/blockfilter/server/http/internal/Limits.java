package org.blockfilter.server.http.internal;

/**
 * BIP 157 request limits the REST API applies
 * (<a href="https://github.com/bitcoin/bips/blob/master/bip-0157.mediawiki">BIP 157</a>).
 */
public final class Limits {
    /** getcfilters: at most 1000 filters per request. */
    public static final int MAX_CFILTERS = 1000;
    /** getcfheaders: at most 2000 filter hashes per request; also Core's MAX_REST_HEADERS_RESULTS. */
    public static final int MAX_CFHEADERS = 2000;
    /** cfcheckpt: a filter header every 1000 blocks. */
    public static final int CHECKPOINT_INTERVAL = 1000;
    /** Block headers per {@code /api/v1/headers} request, as Core's REST headers endpoint. */
    public static final int MAX_HEADERS = 2000;

    private Limits() {
    }
}
