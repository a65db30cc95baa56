package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.testchain.LyingSource;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.RecordingSource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The block-fetch policy in a real sync: decoys deterministic and harmless, downloads spread, liars still caught. */
class FetchPolicySyncTest {
    private static final List<String> OTHER_MNEMONIC =
            List.of("legal winner thank year wave sausage worth useful legal winner thank yellow".split(" "));

    /**
     * 450 blocks: the test wallet is paid at 30, 160 and 330; 40 other addresses are each paid in 4 blocks spread
     * over the chain (so decoy scripts that recur exist), several per block.
     */
    private static RegtestChainBuilder chain;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildChain() {
        Path tmp;
        try {
            tmp = java.nio.file.Files.createTempDirectory("fetchpolicy");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        LightWallet w = TestWallets.create(tmp);
        chain = new RegtestChainBuilder();
        chain.mine(20);
        List<Address> others = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            others.add(ECKey.fromPrivate(Sha256Hash.hash(("other " + i).getBytes()))
                    .toAddress(org.bitcoinj.base.ScriptType.P2WPKH, RegtestChainBuilder.NETWORK));
        }
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        List<List<Address>> payees = new ArrayList<>();
        for (int h = 0; h <= 450; h++) {
            payees.add(new ArrayList<>());
        }
        for (Address a : others) {
            int first = 21 + rnd.nextInt(380);
            for (int k = 0; k < 4; k++) {
                payees.get(Math.min(450, first + k * (1 + rnd.nextInt(15)))).add(a);
            }
        }
        for (int h = 21; h <= 450; h++) {
            List<Address> to = new ArrayList<>(payees.get(h));
            if (h == 30 || h == 160 || h == 330) {
                to.add(addr(w, h == 160 ? 1 : 0));
            }
            if (to.isEmpty()) {
                chain.mine(1);
            } else {
                chain.mineBlock(List.of(chain.pay(to, Coin.CENT)));
            }
        }
    }

    private static Address addr(LightWallet w, int index) {
        HdAccount a = w.keys().account(AddressKind.P2WPKH).orElseThrow();
        return a.derive(false, index).address();
    }

    private LightWallet wallet(String sub, List<String> mnemonic) {
        return TestWallets.p2wpkh(dir, sub, mnemonic);
    }

    private static SyncReport sync(LightWallet w, FetchPolicy p, List<? extends MemorySource> sources) {
        return new SyncEngine(
                        w,
                        sources,
                        SyncEngine.Options.defaults().withFetchPolicy(p).withPause(ms -> {}))
                .sync();
    }

    private static Set<Integer> decoys(List<RecordingSource> sources, SyncReport r, LightWallet w) {
        Set<Integer> own = new TreeSet<>();
        w.ledger().history().forEach(h -> own.add(h.height()));
        Set<Integer> all = new TreeSet<>();
        sources.forEach(s -> all.addAll(s.asked));
        all.removeAll(own);
        assertEquals(r.decoyBlocks(), all.size(), "every decoy block is counted once: " + all);
        return all;
    }

    @Test
    void decoysAreTheSameInEveryResyncOfTheSameWalletAndDifferForAnotherWallet() {
        FetchPolicy p = FetchPolicy.parse("decoys=2,shuffle");
        LightWallet a = wallet("a", TestWallets.MNEMONIC);
        RecordingSource s1 = new RecordingSource("s1", chain);
        Set<Integer> first = decoys(List.of(s1), sync(a, p, List.of(s1)), a);

        a.rescanFrom(0);
        RecordingSource s2 = new RecordingSource("s2", chain);
        Set<Integer> again = decoys(List.of(s2), sync(a, p, List.of(s2)), a);

        LightWallet restored = wallet("restored", TestWallets.MNEMONIC);
        RecordingSource s3 = new RecordingSource("s3", chain);
        Set<Integer> restoredDecoys = decoys(List.of(s3), sync(restored, p, List.of(s3)), restored);

        LightWallet other = wallet("other", OTHER_MNEMONIC);
        RecordingSource s4 = new RecordingSource("s4", chain);
        Set<Integer> otherDecoys = decoys(List.of(s4), sync(other, p, List.of(s4)), other);

        assertTrue(first.size() >= 6, "two seed blocks per matched block at least: " + first);
        assertEquals(first, again, "a rescan downloads the same decoys");
        assertEquals(first, restoredDecoys, "a restore of the same wallet downloads the same decoys");
        assertNotEquals(first, otherDecoys, "another wallet's decoys differ");
    }

    @Test
    void decoyScriptsAreFollowedIntoLaterBlocks() {
        LightWallet a = wallet("a", TestWallets.MNEMONIC);
        RecordingSource s = new RecordingSource("s", chain);
        SyncReport r = sync(a, FetchPolicy.parse("decoys=4"), List.of(s));
        // Seed blocks alone would be at most 4 per matched block; following decoy scripts adds their other blocks.
        assertTrue(
                r.decoyBlocks() > 4 * r.matchedBlocks(),
                "decoy blocks " + r.decoyBlocks() + " for " + r.matchedBlocks() + " matched blocks");
    }

    @Test
    void theLedgerIsTheSameWithDecoysOn() {
        LightWallet plain = wallet("plain", TestWallets.MNEMONIC);
        SyncReport rp = sync(plain, FetchPolicy.NONE, List.of(new RecordingSource("p", chain)));
        LightWallet decoyed = wallet("decoyed", TestWallets.MNEMONIC);
        SyncReport rd = sync(
                decoyed,
                FetchPolicy.parse("spread,decoys=4,shuffle,jitter=5"),
                List.of(new RecordingSource("d1", chain), new RecordingSource("d2", chain)));

        assertEquals(0, rp.decoyBlocks());
        assertTrue(rd.decoyBlocks() > 0);
        assertEquals(3, rp.matchedBlocks());
        assertEquals(rp.matchedBlocks(), rd.matchedBlocks());
        assertEquals(Coin.CENT.multiply(3), plain.ledger().balance(true));
        assertEquals(plain.ledger().balance(true), decoyed.ledger().balance(true));
        assertEquals(plain.ledger().history(), decoyed.ledger().history());
        assertEquals(plain.ledger().utxos(true), decoyed.ledger().utxos(true));
    }

    @Test
    void spreadSendsEachSourceSomeButNotAllDownloads() {
        LightWallet w = wallet("w", TestWallets.MNEMONIC);
        List<RecordingSource> sources = List.of(
                new RecordingSource("r1", chain), new RecordingSource("r2", chain), new RecordingSource("r3", chain));
        SyncReport r = sync(w, FetchPolicy.parse("spread,decoys=2"), sources);
        int total = sources.stream().mapToInt(s -> s.asked.size()).sum();
        assertEquals(r.matchedBlocks() + r.decoyBlocks(), total);
        for (RecordingSource s : sources) {
            assertFalse(s.asked.isEmpty(), s.name() + " got no download");
            assertTrue(s.asked.size() < total, s.name() + " got every download");
        }
        // Without spread the first source serves everything.
        LightWallet w2 = wallet("w2", TestWallets.MNEMONIC);
        List<RecordingSource> plain = List.of(new RecordingSource("q1", chain), new RecordingSource("q2", chain));
        sync(w2, FetchPolicy.parse("decoys=2"), plain);
        assertTrue(plain.get(1).asked.isEmpty());
    }

    @Test
    void aSourceLyingAboutADecoyBlockIsCaughtAndDropped() {
        LightWallet w = wallet("w", TestWallets.MNEMONIC);
        MemorySource honest = new MemorySource("honest", chain);
        Set<Integer> own = Set.of(30, 160, 330);
        LyingSource liar = new LyingSource("liar", new MemorySource("inner", chain)) {
            @Override
            public byte[] block(Sha256Hash blockHash) {
                byte[] b = honest.block(blockHash);
                if (!own.contains(chain.height(blockHash))) {
                    b[b.length - 1] ^= 1; // corrupt a decoy block
                }
                return b;
            }
        };
        SyncReport r = new SyncEngine(
                        w,
                        List.of(liar, honest),
                        SyncEngine.Options.defaults()
                                .withFetchPolicy(FetchPolicy.parse("decoys=2"))
                                .withPause(ms -> {}))
                .sync();
        assertEquals(1, r.dropped().size(), r.dropped().toString());
        assertEquals("liar", r.dropped().get(0).source());
        assertEquals(SourceFault.Kind.LIED, r.dropped().get(0).kind());
        assertEquals(Coin.CENT.multiply(3), w.ledger().balance(true));
    }

    @Test
    void jitterPausesBeforeEveryBlockRequestWithinTheLimit() {
        LightWallet w = wallet("w", TestWallets.MNEMONIC);
        List<Long> pauses = new ArrayList<>();
        SyncReport r = new SyncEngine(
                        w,
                        List.of(new RecordingSource("j", chain)),
                        SyncEngine.Options.defaults()
                                .withFetchPolicy(FetchPolicy.parse("jitter=250"))
                                .withPause(pauses::add))
                .sync();
        assertEquals(r.matchedBlocks() + r.decoyBlocks(), pauses.size());
        assertTrue(pauses.stream().allMatch(ms -> ms >= 0 && ms <= 250), pauses.toString());
    }
}
