package org.blockfilter.server.index;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.DirectoryTrees;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.IndexVerifier;
import org.blockfilter.server.store.StoreException;
import org.blockfilter.server.store.StoreSalvage;
import org.blockfilter.server.store.StoredBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mends a damaged index from the node: verifies it ({@link IndexVerifier}), copies what is sound
 * into a new directory ({@link StoreSalvage}), indexes the rest from the node, verifies the result
 * and only then puts it in place of the old directory, which is kept beside it as
 * {@code DIR.damaged-<epoch seconds>} for the operator to delete. The damaged range is rebuilt
 * from its lowest height when the unspent-output map and undo data are sound and the range is
 * within the undo depth (the rest is kept); otherwise the whole chain is indexed again (the
 * filters of the earlier blocks need the map as of their height, which only a re-index from
 * genesis rebuilds). Run with the server stopped (it opens the index read-write).
 */
public final class IndexRepair {
    private static final Logger LOG = LoggerFactory.getLogger(IndexRepair.class);

    private IndexRepair() {}

    /**
     * What a repair did.
     *
     * @param found       the verification before
     * @param fromHeight  the first height indexed again, -1 if nothing needed repair
     * @param tipHeight   the index's tip afterwards
     * @param damagedCopy where the old directory was moved, if it was
     */
    public record Result(IndexVerifier.Report found, int fromHeight, int tipHeight, Optional<Path> damagedCopy) {}

    /**
     * @param reindexFrom also index again from this height (the {@code --reindex-from} option), if given
     */
    public static Result repair(Path dir, int undoDepth, BlockSource source, Optional<Integer> reindexFrom) {
        Objects.requireNonNull(source, "source");
        if (!IndexStore.holdsIndex(dir)) {
            throw new StoreException("no index in " + dir + ": nothing to repair");
        }
        Path fresh = dir.resolveSibling(dir.getFileName() + ".repair");
        IndexVerifier.Report found;
        int from;
        deleteTree(fresh);
        try (IndexStore old = IndexStore.open(dir, undoDepth)) {
            found = IndexVerifier.verify(old, source::hashAt);
            int tip = found.tipHeight();
            if (found.clean() && reindexFrom.isEmpty()) {
                return new Result(found, -1, tip, Optional.empty());
            }
            // Above the tip when only the metadata is damaged: then every record is kept.
            from = Math.min(
                    tip + 1, Math.min(found.lowestHeight().orElse(tip + 1), reindexFrom.orElse(Integer.MAX_VALUE)));
            boolean keepState = !found.chainStateDamaged() && from > 0 && from > tip - undoDepth;
            if (!keepState) {
                from = 0;
            }
            List<Sha256Hash> chain = keepState ? indexedChain(old, tip, from, source) : List.of();
            LOG.warn(
                    "event=repair from_height={} tip={} keeps_chain_state={} problems={}",
                    from,
                    tip,
                    keepState,
                    found.problems().size());
            StoreSalvage.salvage(old, fresh, chain, from, keepState).close();
        }
        int tipAfter;
        try (IndexStore repaired = IndexStore.open(fresh, undoDepth);
                FilterIndexer indexer = new FilterIndexer(repaired, source, Duration.ofSeconds(1))) {
            indexer.syncOnce();
            IndexVerifier.Report after = IndexVerifier.verify(repaired, source::hashAt);
            if (!after.clean()) {
                throw new StoreException("the repaired index in " + fresh + " still has problems: " + after.problems()
                        + "; " + dir + " is left as it was");
            }
            tipAfter = repaired.tip().map(ChainTip::height).orElse(-1);
        }
        Path damaged = dir.resolveSibling(dir.getFileName() + ".damaged-" + System.currentTimeMillis() / 1000);
        try {
            Files.move(dir, damaged);
            Files.move(fresh, dir);
        } catch (IOException e) {
            throw new StoreException("cannot put the repaired index " + fresh + " in place of " + dir + ": " + e, e);
        }
        LOG.warn("event=repaired from_height={} tip={} damaged_copy={}", from, tipAfter, damaged);
        return new Result(found, from, tipAfter, Optional.of(damaged));
    }

    /**
     * The indexed best chain's hashes, 0..tip: height entries below {@code from} (sound, since
     * {@code from} is at or below the first problem), and above it each block's parent, walking
     * down from the tip through the block records, or the node's header where a record is damaged.
     */
    private static List<Sha256Hash> indexedChain(IndexStore store, int tip, int from, BlockSource source) {
        Sha256Hash[] hashes = new Sha256Hash[tip + 1];
        hashes[tip] = store.tip().orElseThrow().hash();
        for (int h = tip; h >= from; h--) {
            Sha256Hash at = hashes[h];
            Sha256Hash prev;
            try {
                prev = store.block(at).map(StoredBlock::prevBlockHash).orElse(null);
            } catch (StoreException e) {
                prev = null;
            }
            if (prev == null) {
                byte[] header = source.header(at)
                        .orElseThrow(() -> new StoreException("block " + at + " of the index is damaged and the node"
                                + " does not know it: repair cannot rewind past it (use --reindex-from 0)"));
                byte[] p = new byte[32];
                System.arraycopy(header, 4, p, 0, 32);
                prev = Sha256Hash.wrapReversed(p);
            }
            if (h > 0) {
                hashes[h - 1] = prev;
            }
        }
        for (int h = 0; h < from; h++) {
            int height = h;
            hashes[h] = store.hashAt(h)
                    .orElseThrow(() -> new StoreException("no height entry at " + height + " below the damage"));
        }
        if (from > 0 && !hashes[from - 1].equals(store.hashAt(from - 1).orElse(null))) {
            throw new StoreException(
                    "the index's chain does not link at height " + (from - 1) + ": repair with --reindex-from 0");
        }
        return new ArrayList<>(List.of(hashes));
    }

    private static void deleteTree(Path dir) {
        try {
            DirectoryTrees.delete(dir);
        } catch (IOException e) {
            throw new StoreException("cannot remove the earlier repair attempt " + dir + ": " + e, e);
        }
    }
}
