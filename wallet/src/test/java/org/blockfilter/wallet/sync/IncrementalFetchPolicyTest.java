package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
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
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.store.WalletFileContent;
import org.blockfilter.wallet.testchain.RecordingSource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fetch policy in a wallet synced block by block, as wallets are used: it downloads exactly the blocks one sync
 * over the same range downloads, because the decoys and clusters it adopted are kept in the wallet file and followed
 * by every later sync. The chain (250 blocks): from height 21 each block pays three fresh keys A_h, B_h, C_h; C_h is
 * paid again at h + 30 and h + 70 (decoy scripts that recur after the block they were adopted for), from height 41
 * each block spends A_{h-10} and B_{h-20} together (clusters), and B_h is paid again at h + 45 (a cluster member that
 * recurs). The wallet is paid at every 50th height.
 */
class IncrementalFetchPolicyTest {
    private static final int TIP = 250;
    private static RegtestChainBuilder chain;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildChain(@TempDir Path tmp) {
        LightWallet w = TestWallets.create(tmp);
        var account = w.keys().account(AddressKind.P2WPKH).orElseThrow();
        chain = new RegtestChainBuilder();
        chain.mine(20);
        Map<Integer, Transaction> pays = new HashMap<>();
        Map<Integer, ECKey[]> keys = new HashMap<>();
        for (int h = 21; h <= TIP; h++) {
            ECKey[] abc = new ECKey[3];
            List<Address> to = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                abc[k] = ECKey.fromPrivate(Sha256Hash.hash(("incremental " + k + " " + h).getBytes()));
                to.add(abc[k].toAddress(ScriptType.P2WPKH, RegtestChainBuilder.NETWORK));
            }
            keys.put(h, abc);
            for (int back : new int[] {30, 70}) {
                if (keys.containsKey(h - back)) {
                    to.add(keys.get(h - back)[2].toAddress(ScriptType.P2WPKH, RegtestChainBuilder.NETWORK));
                }
            }
            if (keys.containsKey(h - 45)) {
                to.add(keys.get(h - 45)[1].toAddress(ScriptType.P2WPKH, RegtestChainBuilder.NETWORK));
            }
            if (h % 50 == 0) {
                to.add(account.derive(false, h / 50 - 1).address());
            }
            Transaction pay = chain.pay(to, Coin.CENT);
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
                spend.addOutput(Coin.CENT, chain.minerScript());
                txs.add(spend);
            }
            chain.mineBlock(txs);
        }
    }

    private static List<RecordingSource> sources(String prefix) {
        return List.of(new RecordingSource("s1", chain), new RecordingSource("s2", chain));
    }

    private static SyncReport sync(LightWallet w, FetchPolicy p, List<RecordingSource> sources) {
        return new SyncEngine(
                        w,
                        sources,
                        SyncEngine.Options.defaults().withFetchPolicy(p).withPause(ms -> {}))
                .sync();
    }

    /** Per source, the heights it was asked for. */
    private static List<Set<Integer>> asked(List<RecordingSource> sources) {
        return sources.stream().map(s -> (Set<Integer>) new TreeSet<>(s.asked)).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"decoys=4,shuffle", "clusters=4,shuffle", "spread,decoys=2,clusters=2,shuffle"})
    void aWalletSyncedBlockByBlockDownloadsWhatOneRangeSyncDownloads(String spec) throws Exception {
        FetchPolicy p = FetchPolicy.parse(spec);
        LightWallet range = TestWallets.p2wpkh(dir, "range", TestWallets.MNEMONIC);
        List<RecordingSource> rangeSources = sources("range");
        SyncReport r = sync(range, p, rangeSources);

        Path stepsFile = TestWallets.p2wpkh(dir, "steps", TestWallets.MNEMONIC).file();
        List<RecordingSource> stepSources = sources("steps");
        int decoyBlocks = 0;
        for (int tip = 20; tip <= TIP; tip++) {
            for (RecordingSource s : stepSources) {
                s.tip = tip;
            }
            // Loaded again for every block: what the wallet follows must come from its file.
            LightWallet w = LightWallet.load(stepsFile);
            SyncReport step = sync(w, p, stepSources);
            assertEquals(tip, step.tipHeight());
            decoyBlocks += step.decoyBlocks();
        }
        LightWallet steps = LightWallet.load(stepsFile);

        assertTrue(r.decoyBlocks() > 0, "no decoy block in the range sync");
        assertTrue(decoyBlocks > 0, "no decoy block when synced block by block");
        assertEquals(asked(rangeSources), asked(stepSources), "per source, the blocks downloaded");
        assertEquals(range.decoys(), steps.decoys(), "the decoy groups kept");
        assertEquals(range.decoys(), LightWallet.load(range.file()).decoys(), "kept across a reload");
        assertEquals(range.ledger().history(), steps.ledger().history());

        // A decoy adopted at one block is still followed in later syncs: some downloaded block above the block a
        // group was adopted for matches it (so the test covers what a per-sync choice would miss).
        Set<Integer> downloaded = new TreeSet<>();
        asked(stepSources).forEach(downloaded::addAll);
        boolean followedLater = false;
        for (DecoyGroup g : steps.decoys()) {
            List<byte[]> q = g.scripts().stream().map(OutputScript::bytes).toList();
            for (int h = g.adoptedAt() + 1; h <= TIP && !followedLater; h++) {
                followedLater = downloaded.contains(h) && chain.filter(h).matchAny(q);
            }
        }
        assertTrue(followedLater, "no kept decoy matched a later block: " + steps.decoys());
    }

    @ParameterizedTest
    @ValueSource(ints = {WalletFileContent.VERSION_3})
    void aFileWrittenBeforeDecoysWereKeptLoadsWithNoneAndIsRewrittenWithThem(int version) throws Exception {
        LightWallet w = TestWallets.p2wpkh(dir, "old", TestWallets.MNEMONIC);
        Path file = w.file();
        String doc = Files.readString(file);
        assertTrue(doc.contains("\"version\" : " + WalletFileContent.CURRENT_VERSION), doc);
        String old = doc.replace("\"version\" : " + WalletFileContent.CURRENT_VERSION, "\"version\" : " + version)
                .replaceAll(",\\s*\"decoys\" : \\[\\s*\\]", "")
                .replaceAll(",\\s*\"checksum\" : \"[0-9a-f]+\"", "");
        assertFalse(old.contains("decoys") || old.contains("checksum"), old);
        Files.writeString(file, old);

        LightWallet loaded = LightWallet.load(file);
        assertTrue(loaded.decoys().isEmpty());
        SyncReport r = sync(loaded, FetchPolicy.parse("decoys=4"), sources("old"));
        assertTrue(r.decoyBlocks() > 0);
        LightWallet again = LightWallet.load(file);
        assertFalse(again.decoys().isEmpty(), "the decoys adopted after the upgrade are kept");
        assertTrue(Files.readString(file).contains("\"version\" : " + WalletFileContent.CURRENT_VERSION));
    }
}
