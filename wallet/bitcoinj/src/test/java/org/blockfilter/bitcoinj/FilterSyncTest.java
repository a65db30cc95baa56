package org.blockfilter.bitcoinj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.wallet.Wallet;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.sync.SourceFault;
import org.blockfilter.wallet.testchain.LyingSource;
import org.blockfilter.wallet.testchain.MemorySource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilterSyncTest {
    private static final Coin PAID = Coin.valueOf(1_000_000);

    @TempDir
    Path dir;

    private final RegtestChainBuilder chain = new RegtestChainBuilder();

    private void pay(Address to) {
        chain.mineBlock(List.of(chain.pay(List.of(to), PAID)));
    }

    private FilterSync open(Wallet w) {
        return FilterSync.open(w, dir.resolve("w.wallet"), dir.resolve("w.spvchain"));
    }

    private static List<Sha256Hash> txids(Wallet w) {
        List<Sha256Hash> out = new ArrayList<>();
        for (Transaction tx : w.getTransactions(false)) {
            out.add(tx.getTxId());
        }
        out.sort(null);
        return out;
    }

    @Test
    void findsPaymentsToBothChainsAndFeedsBitcoinjEveryBlock() {
        chain.mine(3);
        pay(TestWallet.receiving(ScriptType.P2WPKH, 0));
        chain.mine(2);
        pay(TestWallet.receiving(ScriptType.P2PKH, 3));
        chain.mine(1);
        Wallet w = TestWallet.create();
        try (FilterSync sync = open(w)) {
            FilterSync.Report r = sync.sync(List.of(new MemorySource("honest", chain)));
            assertEquals(chain.tipHeight(), r.height());
            assertEquals(chain.tip().getHash(), r.tipHash());
            assertEquals(2, r.matchedBlocks());
            assertEquals(chain.tipHeight(), r.filtersScanned());
            assertEquals(chain.tip().getHash(), w.getLastBlockSeenHash());
            assertEquals(PAID.multiply(2), w.getBalance(Wallet.BalanceType.AVAILABLE));
            assertEquals(2, w.getTransactions(false).size());
        }
    }

    /**
     * A payment to key 200 is beyond the window bitcoinj starts with (issued 0 plus its look-ahead); only a payment
     * to key 120 in an earlier block of the same filter batch moves the window there.
     */
    @Test
    void matchesTheBlocksAfterAMatchAgainstTheMovedLookAhead() {
        Wallet w = TestWallet.create();
        Address far = TestWallet.receiving(ScriptType.P2WPKH, 200);
        assertFalse(WalletScripts.of(w).stream()
                .anyMatch(s -> s.equals(org.blockfilter.wallet.keys.OutputScript.of(
                        org.bitcoinj.script.ScriptBuilder.createOutputScript(far)
                                .program()))));
        chain.mine(2);
        pay(TestWallet.receiving(ScriptType.P2WPKH, 120));
        chain.mine(1);
        pay(far);
        try (FilterSync sync = open(w)) {
            FilterSync.Report r = sync.sync(List.of(new MemorySource("honest", chain)));
            assertEquals(2, r.matchedBlocks());
            assertEquals(PAID.multiply(2), w.getBalance(Wallet.BalanceType.ESTIMATED));
        }
    }

    @Test
    void aReorgIsBitcoinjsOwnThePaymentOfTheLostBlockGoesBackToPending() {
        chain.mine(2);
        pay(TestWallet.receiving(ScriptType.P2WPKH, 1));
        chain.mine(1);
        MemorySource source = new MemorySource("honest", chain);
        Wallet w = TestWallet.create();
        try (FilterSync sync = open(w)) {
            sync.sync(List.of(source));
            assertEquals(PAID, w.getBalance(Wallet.BalanceType.AVAILABLE));

            RegtestChainBuilder fork = chain.forkAt(2).mine(4);
            source.switchTo(fork);
            FilterSync.Report r = sync.sync(List.of(source));
            assertEquals(fork.tip().getHash(), r.tipHash());
            assertEquals(fork.tip().getHash(), w.getLastBlockSeenHash());
            assertEquals(Coin.ZERO, w.getBalance(Wallet.BalanceType.AVAILABLE), "its block left the chain");
            assertEquals(1, w.getPendingTransactions().size());
        }
    }

    @Test
    void aRestartResumesFromBitcoinjsFiles() throws Exception {
        chain.mine(2);
        pay(TestWallet.receiving(ScriptType.P2WPKH, 0));
        Wallet w = TestWallet.create();
        try (FilterSync sync = open(w)) {
            sync.sync(List.of(new MemorySource("honest", chain)));
        }
        chain.mine(2);
        pay(TestWallet.receiving(ScriptType.P2PKH, 0));
        Wallet loaded = Wallet.loadFromFile(dir.resolve("w.wallet").toFile());
        try (FilterSync sync = open(loaded)) {
            int before = sync.blockChain().getBestChainHeight();
            FilterSync.Report r = sync.sync(List.of(new MemorySource("honest", chain)));
            assertEquals(chain.tipHeight() - before, r.filtersScanned(), "only the blocks since the last sync");
            assertEquals(PAID.multiply(2), loaded.getBalance(Wallet.BalanceType.AVAILABLE));
        }
        Wallet again = Wallet.loadFromFile(dir.resolve("w.wallet").toFile());
        assertEquals(txids(loaded), txids(again));
        assertEquals(chain.tip().getHash(), again.getLastBlockSeenHash());
    }

    @Test
    void aSourceThatHidesThePaymentIsDroppedAndTheHonestOneFindsIt() {
        chain.mine(2);
        pay(TestWallet.receiving(ScriptType.P2WPKH, 5));
        chain.mine(1);
        int paid = chain.tipHeight() - 1;
        MemorySource honest = new MemorySource("honest", chain);
        ChainSource liar = new LyingSource("liar", honest) {
            @Override
            public List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
                List<BlockFilterBytes> out = new ArrayList<>(honest.filters(startHeight, stopHash));
                int i = paid - startHeight;
                if (i >= 0 && i < out.size()) {
                    out.set(i, new BlockFilterBytes(out.get(i).blockHash(), new byte[] {0}));
                }
                return out;
            }
        };
        Wallet w = TestWallet.create();
        try (FilterSync sync = open(w)) {
            FilterSync.Report r = sync.sync(List.of(liar, honest));
            assertEquals(List.of("honest"), r.sourcesUsed());
            assertEquals(1, r.faults().size());
            assertEquals(SourceFault.Kind.LIED, r.faults().get(0).kind());
            assertEquals(PAID, w.getBalance(Wallet.BalanceType.AVAILABLE));
        }
    }

    @Test
    void aWalletFileWithoutItsBlockStoreBlockIsRefusedClearly() {
        chain.mine(3);
        Wallet w = TestWallet.create();
        try (FilterSync sync = open(w)) {
            sync.sync(List.of(new MemorySource("honest", chain)));
        }
        Wallet other = TestWallet.create(); // has seen no block, but the store is at the tip
        IllegalStateException e =
                org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> open(other));
        assertTrue(e.getMessage().contains("delete the block store"), e.getMessage());
    }
}
