package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.store.RecordFile;
import org.blockfilter.wallet.store.WalletFileException;

/**
 * The verified BIP 157 filter-header chain for heights {@code base..base+size-1}, anchored at
 * {@code anchor} = the header at {@code base - 1} (zero at genesis, else a verified checkpoint or
 * the header the sources agreed on at the block-header chain's base). A chain whose anchor is not
 * known yet ({@link #unanchored}) holds nothing; the sync replaces it with an anchored one. Each header was checked
 * link by link with {@link FilterHeaders#next}. Values are in bitcoinj display order.
 *
 * <p>Headers live in a {@link RecordFile} (record {@code i} is the header at {@code base + i}) as
 * far as they were {@link #flush}ed, and in memory above that. Mutable; not thread-safe.
 */
public final class FilterHeaderChain {
    /** Bytes of one filter header record's payload. */
    public static final int BYTES = 32;

    private final int base;
    private final Sha256Hash anchor;
    private RecordFile file;
    private int persisted;
    private int committed = -1;
    private final List<Sha256Hash> tail = new ArrayList<>();

    /**
     * An anchored chain from {@code base}, empty so far; at height 0 the anchor must be the all-zero header before
     * genesis.
     */
    public FilterHeaderChain(int base, Sha256Hash anchor) {
        if (base < 0 || (base == 0 && !anchor.equals(FilterHeaders.GENESIS_PREV))) {
            throw new IllegalArgumentException("filter-header chain from genesis must anchor at the zero hash");
        }
        this.base = base;
        this.anchor = anchor;
    }

    private FilterHeaderChain(int base) {
        this.base = base;
        this.anchor = null;
    }

    /**
     * A chain from {@code base} whose anchor (the header at {@code base - 1}, below the wallet's
     * block headers) is not known yet: the sync takes it from the sources. From genesis the anchor
     * is the zero hash.
     */
    public static FilterHeaderChain unanchored(int base) {
        return base == 0 ? new FilterHeaderChain(0, FilterHeaders.GENESIS_PREV) : new FilterHeaderChain(base);
    }

    /**
     * The chain the wallet document commits: {@code tipHeight} whose header is {@code tipHeader}
     * (null when the chain is empty). Records past the tip are ignored; a file shorter than the tip
     * gives the chain as far as it goes (its headers are re-fetched and their filters rescanned).
     */
    public static FilterHeaderChain open(
            int base, Sha256Hash anchor, RecordFile file, int tipHeight, Sha256Hash tipHeader) {
        FilterHeaderChain c = anchor == null ? new FilterHeaderChain(base) : new FilterHeaderChain(base, anchor);
        c.file = file;
        long records = file.count();
        int top = (int) Math.min(tipHeight, base + records - 1);
        c.persisted = top - base + 1;
        if (top == tipHeight && top >= base) {
            Sha256Hash stored = c.header(top);
            if (!stored.equals(tipHeader)) {
                throw new WalletFileException(
                        "wallet filter-header file " + file.path().toAbsolutePath() + " holds " + stored + " at height "
                                + top + ", but the wallet document commits " + tipHeader + " there",
                        null);
            }
        }
        c.committed = c.tipHeight();
        return c;
    }

    /** Keeps this chain in {@code file} from now on; everything already held is written by the next flush. */
    public void attach(RecordFile file) {
        if (this.file != null) {
            throw new IllegalStateException("the filter-header chain already has a file");
        }
        this.file = file;
        this.persisted = 0;
    }

    /** The height of the chain's first header. */
    public int base() {
        return base;
    }

    /** The header at {@code base - 1}; throws when the chain is {@link #anchored() not anchored} yet. */
    public Sha256Hash anchor() {
        if (anchor == null) {
            throw new IllegalStateException("the filter-header chain from " + base + " has no anchor yet");
        }
        return anchor;
    }

    /** Whether the header before {@code base} is known, so headers can be appended and checked. */
    public boolean anchored() {
        return anchor != null;
    }

    /** Height of the last verified filter header, {@code base - 1} when none. */
    public int tipHeight() {
        return base + persisted + tail.size() - 1;
    }

    /** The header at {@code height}, which must be in {@code base-1..tipHeight}. */
    public Sha256Hash header(int height) {
        if (height == base - 1) {
            return anchor();
        }
        if (height < base || height > tipHeight()) {
            throw new IllegalArgumentException("no verified filter header at height " + height + " (have " + (base - 1)
                    + ".." + tipHeight() + ")");
        }
        int i = height - base - persisted;
        if (i >= 0) {
            return tail.get(i);
        }
        try {
            return Sha256Hash.wrap(file.read(height - base));
        } catch (WalletFileException e) {
            throw new WalletFileException(
                    e.getMessage() + " (the filter header at height " + height + "; `rescan --from " + height
                            + "` fetches it and those above it again)",
                    e);
        }
    }

    /** Appends headers already verified by the caller to extend the tip. */
    public void append(List<Sha256Hash> verified) {
        if (!verified.isEmpty() && anchor == null) {
            throw new IllegalStateException("the filter-header chain from " + base + " has no anchor yet");
        }
        tail.addAll(verified);
    }

    /** Drops headers above {@code height} (a reorg). */
    public void truncate(int height) {
        if (height >= tipHeight()) {
            return;
        }
        int keep = Math.max(0, height - base + 1);
        if (keep >= persisted) {
            tail.subList(keep - persisted, tail.size()).clear();
        } else {
            tail.clear();
            persisted = keep;
        }
    }

    /** Every header, base first (reads the whole file: for tests and small chains). */
    public List<Sha256Hash> headers() {
        List<Sha256Hash> out = new ArrayList<>();
        for (int h = base; h <= tipHeight(); h++) {
            out.add(header(h));
        }
        return out;
    }

    /** The highest height whose record in the file is still this chain's. */
    public int persistedHeight() {
        return base + persisted - 1;
    }

    /** The tip the wallet document on disk commits, as last told by {@link #committed(int)}. */
    public int committedHeight() {
        return committed;
    }

    /** Records that the wallet document on disk now commits the chain up to {@code height}. */
    public void committed(int height) {
        this.committed = height;
    }

    /**
     * Writes the headers held in memory up to {@code upTo} (fsynced), keeping the rest in memory,
     * and returns the bytes written; 0 without a file.
     */
    public long flush(int upTo) {
        int n = Math.min(tail.size(), upTo - (base + persisted) + 1);
        if (file == null || n <= 0) {
            return 0;
        }
        List<byte[]> raw = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            raw.add(tail.get(i).getBytes());
        }
        long before = file.bytesWritten();
        file.write(persisted, raw);
        persisted += n;
        tail.subList(0, n).clear();
        return file.bytesWritten() - before;
    }
}
