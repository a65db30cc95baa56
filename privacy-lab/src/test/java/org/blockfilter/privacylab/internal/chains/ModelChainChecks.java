package org.blockfilter.privacylab.internal.chains;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.IntFunction;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;

/** Checks both model chains (exp8's {@link MainnetLikeChain} and exp5's {@link ProfileShapedChain}) must pass. */
public final class ModelChainChecks {
    private ModelChainChecks() {}

    /**
     * The chain built from a seed has, per block, the real BIP 158 set of exactly its scripts, the same for the same
     * seed and different for another.
     */
    public static void assertFiltersExactAndDeterministic(IntFunction<MainnetLikeChain> bySeed) {
        MainnetLikeChain a = bySeed.apply(42);
        MainnetLikeChain b = bySeed.apply(42);
        MainnetLikeChain c = bySeed.apply(43);
        for (int i = 0; i < a.blocks(); i++) {
            assertEquals(a.filter(i), b.filter(i));
            assertEquals(a.occ.elements(i), a.filter(i).size());
            assertEquals(
                    a.filter(i),
                    GolombCodedSet.build(
                            Bip158.BASIC_P, Bip158.BASIC_M, a.filter(i).key(), a.items(i)));
        }
        assertEquals(a.wallets(), b.wallets());
        assertNotEquals(a.filter(0), c.filter(0));
    }

    /** The fast whole-chain sync equals per-wallet matching and finds every block with a wallet script. */
    public static void assertFastSyncEqualsMatchAny(MainnetLikeChain chain) {
        int[][] fast = chain.syncAll(2);
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            int[] slow = chain.sync(w);
            assertArrayEquals(slow, fast[w.index()]);
            for (int own : chain.ownBlocks(w)) {
                assertTrue(Arrays.binarySearch(slow, own) >= 0, "wallet " + w + " block " + own);
            }
            assertTrue(chain.ownBlocks(w).length > 0);
        }
    }
}
