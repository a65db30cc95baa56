package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.testchain.RecordingSource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cluster decoys ({@code clusters=K}) in a real sync. 1,150 blocks over two filter batches: the test wallet is paid
 * at 30, 160, 330, 1100, 1120 and 1140; 400 other P2WPKH keys are each paid once in 40..939, and in 941..1140 pairs
 * of them (keys 2j and 2j+1, at height 941 + j) are spent together, one two-input transaction per block. A cluster
 * adopted for a payment above 1000 thus has blocks in the first, already scanned batch.
 */
class FetchPolicyClusterSyncTest {
    private static final List<String> OTHER_MNEMONIC =
            List.of("legal winner thank year wave sausage worth useful legal winner thank yellow".split(" "));
    private static final int PAIRS = 200;
    private static final int FIRST_SPEND = 941;
    private static final List<Integer> PAID = List.of(30, 160, 330, 1100, 1120, 1140);

    private static RegtestChainBuilder chain;
    /** Per pair j: the heights its two keys were paid at and the height they were spent at. */
    private static final List<Set<Integer>> pairBlocks = new ArrayList<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void buildChain(@TempDir Path tmp) {
        LightWallet w = TestWallets.create(tmp);
        var account = w.keys().account(AddressKind.P2WPKH).orElseThrow();
        chain = new RegtestChainBuilder();
        chain.mine(20);
        List<ECKey> keys = new ArrayList<>();
        int[] paidAt = new int[2 * PAIRS];
        List<List<Integer>> payees = new ArrayList<>();
        for (int h = 0; h <= 1150; h++) {
            payees.add(new ArrayList<>());
        }
        for (int i = 0; i < 2 * PAIRS; i++) {
            keys.add(ECKey.fromPrivate(Sha256Hash.hash(("cluster other " + i).getBytes())));
            paidAt[i] = 40 + (i * 37) % 900;
            payees.get(paidAt[i]).add(i);
        }
        TransactionOutput[] outputs = new TransactionOutput[2 * PAIRS];
        for (int h = 21; h <= 1150; h++) {
            List<Transaction> txs = new ArrayList<>();
            List<Address> to = new ArrayList<>();
            for (int i : payees.get(h)) {
                to.add(keys.get(i).toAddress(ScriptType.P2WPKH, RegtestChainBuilder.NETWORK));
            }
            if (PAID.contains(h)) {
                to.add(account.derive(false, PAID.indexOf(h)).address());
            }
            if (!to.isEmpty()) {
                Transaction pay = chain.pay(to, Coin.CENT);
                for (int k = 0; k < payees.get(h).size(); k++) {
                    outputs[payees.get(h).get(k)] = pay.getOutput(k);
                }
                txs.add(pay);
            }
            int j = h - FIRST_SPEND;
            if (j >= 0 && j < PAIRS) {
                Transaction spend = new Transaction();
                for (int i : new int[] {2 * j, 2 * j + 1}) {
                    spend.addInput(
                            new TransactionInput(spend, new byte[0], outputs[i].getOutPointFor(), outputs[i].getValue())
                                    .withWitness(TransactionWitness.of(
                                            new byte[71], keys.get(i).getPubKey())));
                }
                spend.addOutput(Coin.CENT, chain.minerScript());
                txs.add(spend);
                pairBlocks.add(Set.of(paidAt[2 * j], paidAt[2 * j + 1], h));
            }
            if (txs.isEmpty()) {
                chain.mine(1);
            } else {
                chain.mineBlock(txs);
            }
        }
    }

    private LightWallet wallet(String sub, List<String> mnemonic) {
        return TestWallets.p2wpkh(dir, sub, mnemonic);
    }

    private static SyncReport sync(LightWallet w, FetchPolicy p, RecordingSource source) {
        return new SyncEngine(
                        w,
                        List.of(source),
                        SyncEngine.Options.defaults().withFetchPolicy(p).withPause(ms -> {}))
                .sync();
    }

    private static Set<Integer> downloads(RecordingSource s) {
        return new TreeSet<>(s.asked);
    }

    @Test
    void clusterDecoysAreTheSameInEveryResyncAndRestoreOfTheSameWalletAndDifferForAnotherWallet() {
        FetchPolicy p = FetchPolicy.parse("clusters=4,shuffle");
        LightWallet a = wallet("a", TestWallets.MNEMONIC);
        RecordingSource s1 = new RecordingSource("s1", chain);
        SyncReport r1 = sync(a, p, s1);

        a.rescanFrom(0);
        RecordingSource s2 = new RecordingSource("s2", chain);
        sync(a, p, s2);

        LightWallet restored = wallet("restored", TestWallets.MNEMONIC);
        RecordingSource s3 = new RecordingSource("s3", chain);
        sync(restored, p, s3);

        LightWallet other = wallet("other", OTHER_MNEMONIC);
        RecordingSource s4 = new RecordingSource("s4", chain);
        sync(other, p, s4);

        assertTrue(r1.decoyBlocks() > 0, "no decoy block");
        assertEquals(downloads(s1), downloads(s2), "a rescan downloads the same blocks");
        assertEquals(downloads(s1), downloads(s3), "a restore downloads the same blocks");
        assertNotEquals(downloads(s1), downloads(s4), "another wallet's decoys differ");
    }

    @Test
    void theLedgerIsTheSameWithClusterDecoysOn() {
        LightWallet plain = wallet("plain", TestWallets.MNEMONIC);
        SyncReport rp = sync(plain, FetchPolicy.NONE, new RecordingSource("p", chain));
        LightWallet decoyed = wallet("decoyed", TestWallets.MNEMONIC);
        SyncReport rd =
                sync(decoyed, FetchPolicy.parse("decoys=2,clusters=4,shuffle"), new RecordingSource("d", chain));

        assertEquals(0, rp.decoyBlocks());
        assertTrue(rd.decoyBlocks() > 0);
        assertEquals(PAID.size(), rp.matchedBlocks());
        assertEquals(rp.matchedBlocks(), rd.matchedBlocks());
        assertEquals(Coin.CENT.multiply(PAID.size()), plain.ledger().balance(true));
        assertEquals(plain.ledger().history(), decoyed.ledger().history());
        assertEquals(plain.ledger().utxos(true), decoyed.ledger().utxos(true));
    }

    @Test
    void anAdoptedClusterIsDownloadedWholeIncludingItsBlocksScannedByAnEarlierSync() {
        LightWallet w = wallet("w", TestWallets.MNEMONIC);
        RecordingSource s = new RecordingSource("s", chain);
        s.tip = 999;
        sync(w, FetchPolicy.parse("clusters=4"), s);
        int firstSync = s.asked.size();
        s.tip = Integer.MAX_VALUE;
        sync(w, FetchPolicy.parse("clusters=4"), s);
        Set<Integer> got = downloads(s);
        Set<Integer> second = new TreeSet<>(s.asked.subList(firstSync, s.asked.size()));
        List<Set<Integer>> whole = pairBlocks.stream().filter(got::containsAll).toList();
        assertTrue(!whole.isEmpty(), "no spending pair downloaded whole: " + got);
        // The look-back: the second sync downloads a pair's payments, below the height the first sync scanned to.
        assertTrue(
                whole.stream()
                        .anyMatch(pair ->
                                pair.stream().filter(h -> h < FIRST_SPEND).allMatch(second::contains)),
                "no look-back download: " + whole + " in " + second);
    }

    @Test
    void withLoneAndClusterDecoysShuffledEverySyncDownloadsTheSameBlocks(@TempDir Path tmp) {
        // A dense chain: from height 21 every block pays two fresh keys A_h and B_h, and from height 41 spends A_{h-10}
        // and B_{h-20} together. A lone decoy can be A_{h-10} (seed block h-10) while block h, a cluster seed, offers
        // {A_{h-10}, B_{h-20}}: which one is adopted must not depend on the order the shuffled batch arrives in, or
        // a rescan downloads other blocks (B_{h-20}'s) and intersecting two syncs strips decoys. The wallet is paid
        // at ten heights, so there are many seed blocks of both kinds. Tried: six syncs of the same wallet.
        LightWallet w = TestWallets.create(tmp);
        var account = w.keys().account(AddressKind.P2WPKH).orElseThrow();
        RegtestChainBuilder dense = new RegtestChainBuilder();
        dense.mine(20);
        Map<Integer, Transaction> pays = new HashMap<>();
        Map<Integer, ECKey[]> keys = new HashMap<>();
        for (int h = 21; h <= 700; h++) {
            ECKey[] ab = {
                ECKey.fromPrivate(Sha256Hash.hash(("dense A " + h).getBytes())),
                ECKey.fromPrivate(Sha256Hash.hash(("dense B " + h).getBytes()))
            };
            keys.put(h, ab);
            List<Address> to = new ArrayList<>();
            to.add(ab[0].toAddress(ScriptType.P2WPKH, RegtestChainBuilder.NETWORK));
            to.add(ab[1].toAddress(ScriptType.P2WPKH, RegtestChainBuilder.NETWORK));
            if (h % 65 == 0) {
                to.add(account.derive(false, h / 65 - 1).address());
            }
            Transaction pay = dense.pay(to, Coin.CENT);
            pays.put(h, pay);
            List<Transaction> txs = new ArrayList<>(List.of(pay));
            if (h >= 41) {
                Transaction spend = new Transaction();
                int[][] inputs = {{h - 10, 0}, {h - 20, 1}};
                for (int[] in : inputs) {
                    TransactionOutput out = pays.get(in[0]).getOutput(in[1]);
                    spend.addInput(new TransactionInput(spend, new byte[0], out.getOutPointFor(), out.getValue())
                            .withWitness(TransactionWitness.of(new byte[71], keys.get(in[0])[in[1]].getPubKey())));
                }
                spend.addOutput(Coin.CENT, dense.minerScript());
                txs.add(spend);
            }
            dense.mineBlock(txs);
        }
        FetchPolicy p = FetchPolicy.parse("decoys=16,clusters=8,shuffle");
        Set<Integer> first = null;
        for (int i = 0; i < 6; i++) {
            RecordingSource s = new RecordingSource("s" + i, dense);
            SyncReport r = sync(wallet("w" + i, TestWallets.MNEMONIC), p, s);
            assertEquals(10, r.matchedBlocks());
            if (first == null) {
                first = downloads(s);
            } else {
                assertEquals(first, downloads(s), "sync " + i + " downloaded other blocks than sync 0");
            }
        }
    }
}
