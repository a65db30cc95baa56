package org.blockfilter.server.http.internal;

/**
 * Request limits of the REST API that are not BIP 157's (those are
 * {@link org.blockfilter.filters.Bip157#MAX_CFILTERS} and
 * {@link org.blockfilter.filters.Bip157#MAX_CFHEADERS}).
 */
public final class Limits {
    /** Core's MAX_REST_HEADERS_RESULTS: most headers per Core REST headers/blockfilterheaders request. */
    public static final int MAX_REST_HEADERS_RESULTS = 2000;
    /** Block headers per {@code /api/v1/headers} request, as Core's REST headers endpoint. */
    public static final int MAX_HEADERS = MAX_REST_HEADERS_RESULTS;

    private Limits() {}
}
