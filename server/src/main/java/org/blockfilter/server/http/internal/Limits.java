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

    /**
     * Highest confirmation target of {@code /api/v1/fee-estimates}: Core's estimatesmartfee accepts
     * 1..1008 (the longest horizon its estimator tracks, src/policy/fees.h).
     */
    public static final int MAX_FEE_TARGET = 1008;

    /**
     * The confirmation targets {@code /api/v1/fee-estimates} answers for when none is asked: next
     * block, the next few, an hour, two, four, a day. btcd estimates at most 25 blocks ahead.
     */
    public static final java.util.List<Integer> FEE_TARGETS = java.util.List.of(1, 2, 3, 6, 12, 24, 144);

    private Limits() {}
}
