package org.blockfilter.server.http.internal;

import org.blockfilter.server.read.FilterIndexReader;

/**
 * Cache-Control values: content about a block buried under {@code buriedDepth} blocks is
 * immutable for a year; anything that depends on the tip gets a short max-age. Immutable, thread-safe.
 */
public final class CachePolicy {
    public static final String IMMUTABLE = "public, max-age=31536000, immutable";
    public static final String NO_STORE = "no-store";

    private final FilterIndexReader index;
    private final int buriedDepth;
    private final String shortLived;

    public CachePolicy(FilterIndexReader index, int buriedDepth, int tipMaxAgeSeconds) {
        this.index = index;
        this.buriedDepth = buriedDepth;
        this.shortLived = "public, max-age=" + tipMaxAgeSeconds;
    }

    /** For content whose newest block is at {@code height} on the best chain (or -1 if not on it). */
    public String forHeight(int height) {
        if (height < 0) {
            return shortLived;
        }
        return index.tip().height() - height >= buriedDepth ? IMMUTABLE : shortLived;
    }

    /** For content that depends on the tip (status, defaults to the tip). */
    public String tipDependent() {
        return shortLived;
    }
}
