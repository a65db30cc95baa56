package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;

/**
 * Step 1 of a sync, block headers: from every live source, its tip (asked of all at once), the fork point with the
 * wallet's chain (exponential, then binary search, never below the chain's base), and the branch
 * above it, checked by {@link VerifiedHeaderChain#validateBranch}. A branch that extends the tip,
 * or replaces a branch with less work (a reorg), becomes a {@link SyncUpdate}. A source whose
 * block at the base differs from the wallet's is on another network or chain; one left on a
 * branch with less work is on a weaker chain. Not thread-safe; one per sync.
 */
final class HeaderPhase {
    private final SyncState state;
    private final SourcePool pool;
    private int reorgDepth;

    HeaderPhase(SyncState state, SourcePool pool) {
        this.state = state;
        this.pool = pool;
    }

    /** The deepest reorg this phase applied (0: none). */
    int reorgDepth() {
        return reorgDepth;
    }

    void run(UpdateSink out) {
        // The first contact with each source, all at once: an unreachable or silent one costs its wait once.
        Map<ChainSource, Integer> tips = pool.askEach(pool.live(), ChainSource::tipHeight);
        tips.forEach(pool::setTip);
        tips.forEach((s, tip) -> pool.ask(s, src -> {
            absorb(src, tip, out);
            return tip;
        }));
        // A source processed before a heavier branch arrived may now be on the weaker side.
        for (ChainSource s : pool.live()) {
            int h = Math.min(pool.tip(s), state.headerTip());
            pool.ask(s, src -> {
                Sha256Hash theirs = headerHash(src, h);
                if (!theirs.equals(state.blockHash(h))) {
                    throw Misbehaviour.weakerChain(
                            h, "its block " + h + " is " + theirs + ", the most-work chain has " + state.blockHash(h));
                }
                return theirs;
            });
        }
        pool.requireLive("after header sync");
        out.stepDone("headers");
    }

    private void absorb(ChainSource s, int tip, UpdateSink out) {
        int fork = forkPoint(s, tip, Math.min(tip, state.headerTip()));
        if (tip <= fork) {
            return;
        }
        List<byte[]> branch = new ArrayList<>();
        for (int start = fork + 1; start <= tip; ) {
            int count = Math.min(Bip157.MAX_CFHEADERS, tip - start + 1);
            List<byte[]> got = s.blockHeaders(start, count);
            if (got.isEmpty()) {
                break;
            }
            if (got.size() > count) {
                throw new InvalidHeaderException(start, "asked for " + count + " headers, got " + got.size());
            }
            branch.addAll(got);
            start += got.size();
        }
        if (branch.isEmpty()) {
            return;
        }
        List<Block> parsed = state.validateBranch(fork + 1, branch);
        int ourTip = state.headerTip();
        if (fork < ourTip) {
            if (VerifiedHeaderChain.work(parsed).compareTo(state.workAbove(fork)) <= 0) {
                throw Misbehaviour.weakerChain(
                        fork + 1, "forks from the best chain after height " + fork + " with less work");
            }
            reorgDepth = Math.max(reorgDepth, ourTip - fork);
        }
        out.apply(SyncUpdate.headers(fork, branch));
    }

    /** Highest height in {@code base..upTo} where the source's chain and ours agree. */
    private int forkPoint(ChainSource s, int tip, int upTo) {
        int base = state.headerBase();
        if (upTo < base) {
            throw new SourceException(
                    s.name(), "its tip " + tip + " is below this wallet's first block, at height " + base);
        }
        int unequal = upTo + 1;
        int h = upTo;
        int step = 1;
        while (true) {
            Sha256Hash theirs = headerHash(s, h);
            if (theirs.equals(state.blockHash(h))) {
                break;
            }
            if (h == base) {
                throw notOurChain(base, theirs);
            }
            unequal = h;
            h = Math.max(base, h - step);
            step *= 2;
        }
        // h agrees, unequal disagrees (or is past upTo): find the last agreeing height between them.
        int lo = h;
        int hi = unequal;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (headerHash(s, mid).equals(state.blockHash(mid))) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The source does not have the wallet's first block: another network's genesis, or a chain without our checkpoint. */
    private Misbehaviour notOurChain(int base, Sha256Hash theirs) {
        String wallet = "this wallet is a " + state.networkName() + " wallet";
        if (base == 0) {
            return Misbehaviour.otherNetwork(
                    -1, "is on another network: its genesis is " + theirs + knownGenesis(theirs) + "; " + wallet);
        }
        return Misbehaviour.otherNetwork(
                base,
                "is not on this wallet's chain: its block " + base + " is " + theirs
                        + ", the wallet's chain starts with " + state.blockHash(base) + " there; " + wallet);
    }

    /** " (testnet4's)" when {@code genesis} is a known network's genesis block, else empty. */
    private static String knownGenesis(Sha256Hash genesis) {
        for (Chain c : Chain.values()) {
            if (c.genesisHash().equals(genesis)) {
                return " (" + c.cliName() + "'s)";
            }
        }
        return "";
    }

    private static Sha256Hash headerHash(ChainSource s, int height) {
        List<byte[]> one = s.blockHeaders(height, 1);
        if (one.size() != 1 || one.get(0).length != Block.HEADER_SIZE) {
            throw new InvalidHeaderException(height, "asked for 1 header, got " + one.size());
        }
        return VerifiedHeaderChain.parse(one.get(0)).getHash();
    }
}
