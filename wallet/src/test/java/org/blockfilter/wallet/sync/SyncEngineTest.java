package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.ledger.HistoryEntry;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncEngineTest {
    @TempDir
    Path dir;

    private static Address addr(LightWallet w, AddressKind kind, boolean change, int index) {
        HdAccount a = w.keys().account(kind).orElseThrow();
        return a.derive(change, index).address();
    }

    private static SyncReport sync(LightWallet w, MemorySource... sources) {
        return new SyncEngine(w, List.of(sources), SyncEngine.Options.defaults()).sync();
    }

    @Test
    void findsPaymentsToEveryAccountKindAndFetchesOnlyMatchingBlocks() {
        LightWallet w = TestWallets.create(dir);
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(5);
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, AddressKind.P2WPKH, false, 0)), Coin.COIN)));
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(
                List.of(addr(w, AddressKind.P2PKH, false, 3), addr(w, AddressKind.P2TR, true, 1)), Coin.CENT)));
        chain.mine(3);
        MemorySource src = new MemorySource("honest", chain);

        SyncReport r =
                new SyncEngine(w, List.of(src), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE)).sync();

        assertEquals(chain.tipHeight(), r.tipHeight());
        assertEquals(Coin.COIN.add(Coin.CENT.multiply(2)), w.ledger().balance(true));
        assertEquals(3, w.ledger().utxos(true).size());
        assertEquals(2, r.matchedBlocks());
        assertEquals(2, src.blocksServed);
        assertEquals(chain.tipHeight() + 1, src.filtersServed);
        assertTrue(r.dropped().isEmpty());
    }

    @Test
    void seesSpendsOfItsOutputsThroughPrevoutScripts() {
        LightWallet w = TestWallets.create(dir);
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(3);
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, AddressKind.P2WPKH, false, 0)), Coin.COIN)));
        MemorySource src = new MemorySource("honest", chain);
        sync(w, src);
        var unlocked = w.unlock(TestWallets.PASSPHRASE);
        var spender = new org.blockfilter.wallet.spend.Spender(w);
        var payment = spender.prepare(unlocked, chain.minerAddress(), Coin.COIN.divide(4), 2);
        spender.broadcast(payment, List.of(src));
        chain.mineMempool();
        chain.mine(1);

        sync(w, src);

        Coin expected = Coin.COIN.subtract(Coin.COIN.divide(4)).subtract(payment.fee());
        assertEquals(expected, w.ledger().balance(true));
        HistoryEntry spend = w.ledger().history().stream()
                .filter(h -> h.txid().equals(payment.txid()))
                .findFirst()
                .orElseThrow();
        assertEquals(chain.tipHeight() - 1, spend.height());
        assertEquals(payment.fee(), spend.fee());
    }

    @Test
    void gapWindowSlidesAndEarlierBlocksAreRescanned() {
        LightWallet w = TestWallets.create(dir);
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(2);
        // Index 30 is outside the first window (0..19) and paid first; index 15 is inside and paid later.
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, AddressKind.P2WPKH, false, 30)), Coin.COIN)));
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, AddressKind.P2WPKH, false, 15)), Coin.CENT)));
        chain.mine(2);

        sync(w, new MemorySource("honest", chain));

        assertEquals(Coin.COIN.add(Coin.CENT), w.ledger().balance(true));
        assertEquals(30, w.keys().chainState(AddressKind.P2WPKH, false).highestUsed());
        assertTrue(w.keys()
                .isMine(w.keys()
                        .account(AddressKind.P2WPKH)
                        .orElseThrow()
                        .derive(false, 50)
                        .script()));
    }

    @Test
    void reorgRollsBackDroppedBlocksAndAppliesTheNewBranch() {
        LightWallet w = TestWallets.create(dir);
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(6);
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, AddressKind.P2WPKH, false, 0)), Coin.COIN)));
        chain.mine(2);
        MemorySource src = new MemorySource("honest", chain);
        sync(w, src);
        assertEquals(Coin.COIN, w.ledger().balance(true));

        RegtestChainBuilder fork = chain.forkAt(5);
        fork.mine(1);
        fork.mineBlock(List.of(fork.pay(List.of(addr(w, AddressKind.P2WPKH, false, 1)), Coin.CENT)));
        fork.mine(3);
        src.switchTo(fork);

        SyncReport r = sync(w, src);

        assertEquals(4, r.reorgDepth());
        assertEquals(fork.tipHeight(), w.headers().tipHeight());
        assertEquals(fork.block(fork.tipHeight()).getHash(), w.headers().tipHash());
        assertEquals(Coin.CENT, w.ledger().balance(true));
        assertEquals(1, w.ledger().transactions().size());
    }

    @Test
    void restartResumesFromTheSavedPosition() {
        LightWallet w = TestWallets.create(dir);
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(3);
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, AddressKind.P2WPKH, false, 2)), Coin.COIN)));
        MemorySource src = new MemorySource("honest", chain);
        sync(w, src);

        chain.mine(4);
        LightWallet reloaded = LightWallet.load(w.file());
        assertEquals(Coin.COIN, reloaded.ledger().balance(true));
        int before = src.filtersServed;
        SyncReport r = sync(reloaded, src);

        assertEquals(4, src.filtersServed - before);
        assertEquals(chain.tipHeight(), r.tipHeight());
        assertEquals(Coin.COIN, reloaded.ledger().balance(true));
    }

    @Test
    void birthdayPastACheckpointStartsFilterHeadersThere() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(1200);
        LightWallet w = TestWallets.create(dir, LightWallet.Birthday.ofHeight(1100));
        List<Transaction> late = new ArrayList<>();
        late.add(chain.pay(List.of(addr(w, AddressKind.P2WPKH, false, 0)), Coin.COIN));
        chain.mineBlock(late);
        chain.mine(10);
        MemorySource src = new MemorySource("honest", chain);

        sync(w, src);

        assertEquals(1001, w.filterHeaders().base());
        assertEquals(chain.filterHeader(1000), w.filterHeaders().anchor());
        assertEquals(chain.tipHeight() - 1100 + 1, src.filtersServed);
        assertEquals(Coin.COIN, w.ledger().balance(true));
    }

    @Test
    void watchOnlyWalletFromAnXpubSeesTheSameCoins() {
        LightWallet full = TestWallets.create(dir);
        String xpub = full.keys().account(AddressKind.P2WPKH).orElseThrow().extendedPublicKey();
        LightWallet watch = NewWallet.watchOnly(
                dir.resolve("watch.json"),
                List.of(HdAccount.watchOnly(xpub, AddressKind.P2WPKH, Chain.REGTEST.addressNetwork())),
                null,
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withSealing(Sealing.NONE));
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(List.of(addr(full, AddressKind.P2WPKH, true, 4)), Coin.COIN)));

        sync(watch, new MemorySource("honest", chain));

        assertTrue(watch.watchOnly());
        assertEquals(Coin.COIN, watch.ledger().balance(true));
    }

    @Test
    void birthdayAsADateSkipsOlderBlocks() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(20);
        long time = chain.block(15).time().getEpochSecond() + 7200; // with the 2 h slack, block 15 is the first
        LightWallet w = TestWallets.create(dir, LightWallet.Birthday.ofTime(time));
        chain.mine(5);
        MemorySource src = new MemorySource("honest", chain);

        sync(w, src);

        assertEquals(15, w.birthdayHeight());
        assertEquals(chain.tipHeight() - 15 + 1, src.filtersServed);
    }

    @Test
    void reportsProgressUpToTheTip() {
        LightWallet w = TestWallets.create(dir);
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(30);
        List<SyncProgress> seen = new ArrayList<>();
        new SyncEngine(
                        w,
                        List.of(new MemorySource("honest", chain)),
                        SyncEngine.Options.defaults().withListener(seen::add))
                .sync();
        SyncProgress last = seen.get(seen.size() - 1);
        assertEquals(30, last.headersHeight());
        assertEquals(30, last.filterHeadersHeight());
        assertEquals(30, last.filtersHeight());
    }
}
