package org.blockfilter.server.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.FilterHeaders;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;

/**
 * Reads every record of an index and reports what is damaged, as height ranges: each table file's
 * checksums ({@code SstFileReader.verifyChecksum}), then every best-chain height from genesis to
 * the tip: its height entry and block record are readable, the record is at its height, its
 * header hashes to the block hash and links to the previous block, its filter hashes to the stored
 * filter hash, and the filter header chain links (BIP 157); the undo data of the newest
 * {@code undoDepth} blocks is readable; and, given a node, each block hash equals the node's at
 * that height. Stateless; reads only.
 */
public final class IndexVerifier {
    private IndexVerifier() {}

    /**
     * One problem.
     *
     * @param family     the column family it is in
     * @param file       the damaged table file, or null for a record-level problem
     * @param fromHeight the first height it touches, -1 if it is not kept by height
     * @param toHeight   the last
     * @param what       what is wrong
     */
    public record Problem(String family, String file, int fromHeight, int toHeight, String what) {
        @Override
        public String toString() {
            String heights = fromHeight < 0 ? "heights ?" : "heights " + fromHeight + ".." + toHeight;
            return family + (file == null ? "" : " " + file) + " " + heights + ": " + what;
        }
    }

    /**
     * What {@link #verify} found.
     *
     * @param tipHeight the index's tip height, -1 if empty
     * @param problems  every problem, files first, then records by height
     */
    public record Report(int tipHeight, List<Problem> problems) {
        public boolean clean() {
            return problems.isEmpty();
        }

        /**
         * The lowest height a problem touches: 0 for the UTXO map (not kept by height); metadata
         * problems touch no height (the metadata is rewritten whole).
         */
        public Optional<Integer> lowestHeight() {
            return problems.stream()
                    .filter(p -> !p.family().equals("default"))
                    .map(p -> Math.max(0, p.fromHeight()))
                    .min(Integer::compare);
        }

        /** Whether the UTXO map or undo data is damaged: only a re-index from genesis mends those. */
        public boolean chainStateDamaged() {
            return problems.stream()
                    .anyMatch(p -> p.family().equals("utxo") || p.family().equals("undo"));
        }
    }

    /**
     * @param nodeHashAt the node's best-chain hash at a height (empty above its tip), or null to
     *     check the index on its own
     */
    public static Report verify(IndexStore store, IntFunction<Optional<Sha256Hash>> nodeHashAt) {
        List<Problem> problems = new ArrayList<>(files(store));
        int tip = store.tip().map(ChainTip::height).orElse(-1);
        Sha256Hash prevHash = null;
        Sha256Hash prevHeader = FilterHeaders.GENESIS_PREV;
        Ranges bad = new Ranges(problems);
        for (int h = 0; h <= tip; h++) {
            String what = null;
            String family = "block";
            StoredBlock b = null;
            try {
                Optional<Sha256Hash> hash = store.hashAt(h);
                if (hash.isEmpty()) {
                    family = "height";
                    what = "no height entry";
                } else {
                    Optional<StoredBlock> record = store.block(hash.get());
                    if (record.isEmpty()) {
                        what = "no block record for " + hash.get();
                    } else {
                        b = record.get();
                        what = check(b, h, prevHash, prevHeader);
                    }
                    if (what == null && nodeHashAt != null) {
                        Optional<Sha256Hash> theirs = nodeHashAt.apply(h);
                        if (!theirs.equals(hash)) {
                            family = "height";
                            what = "the node's block is "
                                    + theirs.map(Object::toString).orElse("none") + ", the index has " + hash.get();
                        }
                    }
                }
            } catch (StoreException | IllegalArgumentException e) {
                family = e.getMessage() != null && e.getMessage().contains(" height file") ? "height" : family;
                what = "unreadable: " + e.getMessage();
            }
            bad.add(family, h, what);
            prevHash = b == null ? null : b.blockHash();
            prevHeader = b == null ? null : b.filterHeader();
        }
        for (int h = Math.max(0, tip - store.undoDepth() + 1); h <= tip; h++) {
            String what = null;
            try {
                Optional<Sha256Hash> hash = store.hashAt(h);
                if (hash.isPresent() && !store.hasUndo(hash.get())) {
                    what = "no undo data";
                }
            } catch (StoreException e) {
                what = "unreadable: " + e.getMessage();
            }
            bad.add("undo", h, what);
        }
        bad.flush();
        return new Report(tip, List.copyOf(problems));
    }

    /** Null if the record is sound at this height after that predecessor, else what is wrong. */
    private static String check(StoredBlock b, int h, Sha256Hash prevHash, Sha256Hash prevHeader) {
        if (b.height() != h) {
            return "record says height " + b.height();
        }
        Sha256Hash hash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(b.header()));
        if (!hash.equals(b.blockHash())) {
            return "header hashes to " + hash;
        }
        if (prevHash != null && !b.prevBlockHash().equals(prevHash)) {
            return "header does not link to the block at height " + (h - 1);
        }
        Sha256Hash filterHash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(b.filter()));
        if (!filterHash.equals(b.filterHash())) {
            return "filter hashes to " + filterHash + ", the record says " + b.filterHash();
        }
        if (prevHeader != null && !b.prevFilterHeader().equals(prevHeader)) {
            return "previous filter header does not match the filter header at height " + (h - 1);
        }
        if (!FilterHeaders.next(b.filterHash(), b.prevFilterHeader()).equals(b.filterHeader())) {
            return "filter header does not follow from the filter hash and the previous header";
        }
        return null;
    }

    /** Each live table file whose checksums fail, with the heights it holds. */
    static List<Problem> files(IndexStore store) {
        List<Problem> out = new ArrayList<>();
        try (Options options = new Options()) {
            for (LiveFileMetaData f : store.db().getLiveFilesMetaData()) {
                String path = f.path() + f.fileName();
                try (SstFileReader reader = new SstFileReader(options)) {
                    reader.open(path);
                    reader.verifyChecksum();
                } catch (RocksDBException e) {
                    String family = new String(f.columnFamilyName(), StandardCharsets.US_ASCII);
                    int[] range = heightRangeOrUnknown(store, family, f);
                    out.add(new Problem(family, path, range[0], range[1], "checksum: " + e.getMessage()));
                }
            }
        }
        return out;
    }

    private static int[] heightRangeOrUnknown(IndexStore store, String family, LiveFileMetaData f) {
        try {
            return StoreDamage.heightRange(
                    family, f.smallestKey(), f.largestKey(), store.db(), store.handle(IndexStore.Family.HEIGHT));
        } catch (RuntimeException e) {
            return new int[] {-1, -1};
        }
    }

    /** Folds consecutive heights with a problem of the same family into one range. */
    private static final class Ranges {
        private final List<Problem> out;
        private String family;
        private String what;
        private int from = -1;
        private int to = -1;

        Ranges(List<Problem> out) {
            this.out = out;
        }

        void add(String fam, int h, String problem) {
            if (problem != null && fam.equals(family) && h == to + 1) {
                to = h;
                return;
            }
            flush();
            if (problem != null) {
                family = fam;
                what = problem;
                from = h;
                to = h;
            }
        }

        void flush() {
            if (family != null) {
                out.add(new Problem(family, null, from, to, what + (to > from ? " (first of the range)" : "")));
            }
            family = null;
        }
    }
}
