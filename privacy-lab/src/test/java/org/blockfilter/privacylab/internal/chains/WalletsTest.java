package org.blockfilter.privacylab.internal.chains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitcoinj.core.BloomFilter;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.BloomMath;
import org.junit.jupiter.api.Test;

/** The wallets' filters are bitcoinj's, sized as the paper describes. */
class WalletsTest {
    @Test
    void basicWalletInsertsTwoElementsPerKeyAndIsSizedForTwoNPlusHundred() {
        Wallets.Client c = Wallets.client(Wallets.Model.Y2014, 1);
        List<byte[]> hashes = c.growTo(7);
        assertEquals(14, c.elementCount());
        BloomFilter f = c.filter(Wallets.RATE_2014, 5);
        Bip37Filter copy = Bip37Filter.fromBitcoinj(f);
        // bitcoinj's constructor size for 2N + 100 = 114 elements at 0.0005
        assertEquals(BloomMath.bip37SizeBytes(114, Wallets.RATE_2014), copy.sizeBytes());
        hashes.forEach(h -> assertTrue(f.contains(h)));
    }

    @Test
    void sameSeedGivesSameKeysAndFilter() {
        Wallets.Client a = Wallets.client(Wallets.Model.TODAY, 9);
        Wallets.Client b = Wallets.client(Wallets.Model.TODAY, 9);
        assertEquals(
                java.util.HexFormat.of().formatHex(a.growTo(3).get(2)),
                java.util.HexFormat.of().formatHex(b.growTo(3).get(2)));
        assertEquals(a.filter(1e-5, 4), b.filter(1e-5, 4));
    }

    @Test
    void hdWalletFilterHoldsItsLookaheadKeys() {
        Wallets.Client c = Wallets.client(Wallets.Model.TODAY, 2);
        c.growTo(0);
        int fresh = c.elementCount();
        assertTrue(fresh >= 2 * 100, "lookahead keys are in the filter: " + fresh);
        c.growTo(50);
        assertTrue(c.elementCount() >= fresh, "issuing keys never shrinks the filter");
    }

    @Test
    void bitcoinj012HdWalletSendsOneChainWithLookaheadOneHundredPlusThirtyThreePerBranch() {
        // 0.12: root + account + 2 branch keys + (100 + 33) leaves per branch = 270 keys, pubkey and hash each.
        Wallets.Client c = Wallets.client(Wallets.Model.HD_2014, 3);
        c.growTo(0);
        assertEquals(540, c.elementCount());
        Bip37Filter f = Bip37Filter.fromBitcoinj(c.filter(Wallets.RATE_2014, 1));
        assertEquals(
                Bip37Filter.fromBitcoinj(new BloomFilter(640, Wallets.RATE_2014, 1))
                        .sizeBytes(),
                f.sizeBytes());
    }

    @Test
    void todaysP2wpkhWalletFilterHoldsTwoChains() {
        // Today's wallet is labelled as what it is: fromSeed(P2WPKH) builds a P2WPKH chain and a fallback P2PKH chain;
        // both are in the filter.
        Wallets.Client today = Wallets.client(Wallets.Model.TODAY, 3);
        today.growTo(0);
        Wallets.Client oneChain = Wallets.client(Wallets.Model.HD_2014, 3);
        oneChain.growTo(0);
        assertEquals(2 * oneChain.elementCount(), today.elementCount());
        assertTrue(!Wallets.Model.Y2014.label().contains("0.12"), "the pre-HD chain is not labelled bitcoinj 0.12");
    }
}
