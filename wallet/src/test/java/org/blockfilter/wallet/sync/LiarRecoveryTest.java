package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.testchain.LyingSource;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.OmittingSource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A liar syncs the wallet first and alone; later the honest source alone must bring the wallet to
 * the right state without being blamed for the liar's data. Before the fix the liar's filter
 * headers were persisted as verified and every later honest sync failed with "LIED at height ...".
 * Each test reloads the wallet from its file between the two syncs, as two CLI runs would.
 */
class LiarRecoveryTest {
    @TempDir
    Path dir;

    private RegtestChainBuilder chain;
    private Address paid;
    private int payHeight;

    private LightWallet chainPaying(int blocksBefore, int blocksAfter) {
        LightWallet wallet = TestWallets.create(dir);
        chain = new RegtestChainBuilder();
        chain.mine(blocksBefore);
        paid = wallet.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, 0)
                .address();
        chain.mineBlock(List.of(chain.pay(List.of(paid), Coin.COIN)));
        payHeight = chain.tipHeight();
        chain.mine(blocksAfter);
        return wallet;
    }

    private static SyncReport sync(LightWallet w, ChainSource... sources) {
        return new SyncEngine(w, List.of(sources), SyncEngine.Options.defaults()).sync();
    }

    /** Changes one byte of the filter hash at {@code height} in every cfheaders answer that covers it. */
    private static LyingSource flippingFilterHash(String name, ChainSource honest, int height) {
        return new LyingSource(name, honest) {
            @Override
            public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
                FilterHashBatch real = honest.filterHeaders(startHeight, stopHash);
                List<Sha256Hash> hashes = new ArrayList<>(real.filterHashes());
                int i = height - startHeight;
                if (i >= 0 && i < hashes.size()) {
                    byte[] b = hashes.get(i).getBytes().clone(); // getBytes() is the hash's own array
                    b[0] ^= 1;
                    hashes.set(i, Sha256Hash.wrap(b));
                }
                return new FilterHashBatch(real.previousHeader(), hashes);
            }
        };
    }

    private void assertHonestSyncRecovers(LightWallet touched) {
        LightWallet reloaded = LightWallet.load(touched.file());
        SyncReport r = sync(reloaded, new MemorySource("honest", chain));
        assertEquals(List.of(), r.dropped(), "the honest source must not be blamed");
        assertEquals(chain.tipHeight(), reloaded.scannedHeight());
        assertEquals(
                chain.filterHeader(chain.tipHeight()), reloaded.filterHeaders().header(chain.tipHeight()));
        assertEquals(Coin.COIN, reloaded.ledger().balance(true));
        // And the file it wrote is good for the next run.
        LightWallet again = LightWallet.load(touched.file());
        assertEquals(List.of(), sync(again, new MemorySource("honest", chain)).dropped());
        assertEquals(Coin.COIN, again.ledger().balance(true));
    }

    @Test
    void honestSourceRecoversAfterALiarFlippedOneFilterHashAtHeight250() {
        LightWallet w = chainPaying(300, 20);
        SyncException e = assertThrows(
                SyncException.class, () -> sync(w, flippingFilterHash("liar", new MemorySource("h", chain), 250)));
        assertTrue(e.getMessage().contains("liar LIED at height 250"), e.getMessage());

        assertHonestSyncRecovers(w);
    }

    @Test
    void honestSourceRecoversAfterALiarFlippedAFilterHashPastTheLastCheckpoint() {
        LightWallet w = chainPaying(1_010, 30); // checkpoint at 1000; payment at 1011
        assertThrows(
                SyncException.class, () -> sync(w, flippingFilterHash("liar", new MemorySource("h", chain), 1_020)));

        assertHonestSyncRecovers(w);
    }

    @Test
    void aFlippedFilterHashBelowACheckpointIsCaughtAtTheCheckpointAndNeverStored() {
        LightWallet w = chainPaying(300, 750); // tip 1051: the lie at 250 breaks the checkpoint at 1000
        SyncException e = assertThrows(
                SyncException.class, () -> sync(w, flippingFilterHash("liar", new MemorySource("h", chain), 250)));
        assertTrue(e.getMessage().contains("liar LIED at height 1000"), e.getMessage());
        assertTrue(e.getMessage().contains("checkpoint"), e.getMessage());

        assertHonestSyncRecovers(w);
    }

    /** A false filter at the payment's height with filter headers and checkpoints all consistent with it. */
    private LyingSource selfConsistentLiar(ChainSource honest) {
        return new OmittingSource("liar", honest, chain, payHeight, paid);
    }

    @Test
    void honestSourceRecoversFromASelfConsistentFalseFilterThatASingleLiarGotPersisted() {
        LightWallet w = chainPaying(40, 10);
        // Alone, the liar cannot be caught: its filter omits the payment, the wallet sees nothing.
        SyncReport lied = sync(w, selfConsistentLiar(new MemorySource("h", chain)));
        assertEquals(List.of(), lied.dropped());
        assertEquals(Coin.ZERO, w.ledger().balance(true));

        assertHonestSyncRecovers(w);
    }

    @Test
    void honestSourceRecoversFromASelfConsistentLieThatAlsoChangedTheCheckpoints() {
        LightWallet w = chainPaying(40, 1_000); // the lie at 41 changes the checkpoint at 1000
        sync(w, selfConsistentLiar(new MemorySource("h", chain)));
        assertEquals(Coin.ZERO, w.ledger().balance(true));

        assertHonestSyncRecovers(w);
    }

    @Test
    void aLaterLiarCannotMakeTheWalletBlameTheHonestDataItStored() {
        LightWallet w = chainPaying(40, 10);
        sync(w, new MemorySource("honest", chain));
        assertEquals(Coin.COIN, w.ledger().balance(true));

        // The liar alone contradicts the stored chain at the payment; its filter is refuted by the block.
        LightWallet reloaded = LightWallet.load(w.file());
        chain.mine(2);
        SyncException e = assertThrows(
                SyncException.class, () -> sync(reloaded, selfConsistentLiar(new MemorySource("h", chain))));
        assertTrue(e.getMessage().contains("liar LIED at height " + payHeight), e.getMessage());
        assertEquals(Coin.COIN, LightWallet.load(w.file()).ledger().balance(true));
        assertHonestSyncRecovers(w);
    }

    @Test
    void rescanFromAHeightRefetchesFilterHeadersAndFilters() {
        LightWallet w = chainPaying(40, 10);
        sync(w, selfConsistentLiar(new MemorySource("h", chain)));
        assertEquals(Coin.ZERO, w.ledger().balance(true));

        LightWallet reloaded = LightWallet.load(w.file());
        reloaded.rescanFrom(payHeight - 5);
        assertEquals(payHeight - 6, reloaded.scannedHeight());
        assertEquals(payHeight - 6, reloaded.filterHeaders().tipHeight());
        SyncReport r = sync(reloaded, new MemorySource("honest", chain));
        assertEquals(List.of(), r.dropped());
        assertEquals(Coin.COIN, reloaded.ledger().balance(true));
    }
}
