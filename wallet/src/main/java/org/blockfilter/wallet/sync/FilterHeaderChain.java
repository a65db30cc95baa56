package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.FilterHeaders;

/**
 * The verified BIP 157 filter-header chain for heights {@code base..base+size-1}, anchored at
 * {@code anchor} = the header at {@code base - 1} (zero at genesis, else a verified checkpoint).
 * Each header was checked link by link with {@link FilterHeaders#next}. Mutable; not
 * thread-safe. Values are in bitcoinj display order.
 */
public final class FilterHeaderChain {
    private final int base;
    private final Sha256Hash anchor;
    private final List<Sha256Hash> headers = new ArrayList<>();

    public FilterHeaderChain(int base, Sha256Hash anchor) {
        if (base < 0 || (base == 0 && !anchor.equals(FilterHeaders.GENESIS_PREV))) {
            throw new IllegalArgumentException("filter-header chain from genesis must anchor at the zero hash");
        }
        this.base = base;
        this.anchor = anchor;
    }

    public int base() {
        return base;
    }

    public Sha256Hash anchor() {
        return anchor;
    }

    /** Height of the last verified filter header, {@code base - 1} when none. */
    public int tipHeight() {
        return base + headers.size() - 1;
    }

    /** The header at {@code height}, which must be in {@code base-1..tipHeight}. */
    public Sha256Hash header(int height) {
        if (height == base - 1) {
            return anchor;
        }
        if (height < base || height > tipHeight()) {
            throw new IllegalArgumentException("no verified filter header at height " + height + " (have " + (base - 1)
                    + ".." + tipHeight() + ")");
        }
        return headers.get(height - base);
    }

    /** Appends headers already verified by the caller to extend the tip. */
    public void append(List<Sha256Hash> verified) {
        headers.addAll(verified);
    }

    /** Drops headers above {@code height} (a reorg). */
    public void truncate(int height) {
        while (tipHeight() > height && !headers.isEmpty()) {
            headers.remove(headers.size() - 1);
        }
    }

    public List<Sha256Hash> headers() {
        return List.copyOf(headers);
    }
}
