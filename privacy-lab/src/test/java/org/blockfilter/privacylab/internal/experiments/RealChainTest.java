package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionWitness;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.FilterElement;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.blockfilter.privacylab.internal.chains.RealChain;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real chain exp8 syncs over: every model appearance is an output or a real input, spends are grouped by the
 * model's clusters, the prevout scripts are derivable from the blocks, and the wallets' ledgers see their payments
 * and spends.
 *
 * <p>The hand-made chain: wallet 0 owns scripts 0 and 1 (spent together: one cluster); 10 and 11 are a background
 * cluster; 12..14 appear once.
 *
 * <pre>
 *   block 0: 0 10     block 1: 1 12     block 2: 13
 *   block 3: 0 1 10 11                  block 4: 0 14
 * </pre>
 *
 * Read: 0 paid in 0, 1 paid in 1; in block 3 the wallet spends both in one transaction, and 10 (paid in block 0) is
 * spent with 11 (an output older than the chain: a made-up outpoint); 0 is paid again in block 4.
 */
class RealChainTest {
    @TempDir
    Path tmp;

    private static FetchPolicyRun.World handWorld(Path out) {
        int[][] blocks = {{0, 10}, {1, 12}, {13}, {0, 1, 10, 11}, {0, 14}};
        int[][] groups = {{0, 1}, {10, 11}};
        MainnetLikeChain chain =
                MainnetLikeChain.of(7, blocks, groups, List.of(new MainnetLikeChain.Wallet(0, 2, 0, 0)));
        return FetchPolicyRun.world(chain, lab(out), 0, null);
    }

    private static Lab lab(Path out) {
        return new Lab(7, true, out, 1, new PrintStream(PrintStream.nullOutputStream()));
    }

    private static Block block(RealChain real, int height) {
        return Block.read(ByteBuffer.wrap(real.rawBlock(height)));
    }

    /** The prevout script of an input as the block alone shows it: P2WPKH of the witness key, or none. */
    private static byte[] derived(TransactionInput in) {
        TransactionWitness w = in.getWitness();
        return w.getPushCount() == 2 ? RealChain.p2wpkh(w.getPush(1)) : new byte[0];
    }

    private static Map<TransactionOutPoint, byte[]> prevouts(Block b) {
        Map<TransactionOutPoint, byte[]> out = new HashMap<>();
        for (Transaction tx : b.getTransactions()) {
            if (!tx.isCoinBase()) {
                for (TransactionInput in : tx.getInputs()) {
                    out.put(in.getOutpoint(), derived(in));
                }
            }
        }
        return out;
    }

    private static byte[] pubKey(FetchPolicyRun.World world, int id) {
        for (MainnetLikeChain.Wallet w : world.chain().wallets()) {
            if (id >= w.firstScript() && id < w.firstScript() + w.n()) {
                return world.accounts()[w.index()]
                        .key(false, id - w.firstScript())
                        .getPubKey();
            }
        }
        return RealChain.pseudoPubKey(world.chain().seed, id);
    }

    /** Each block's filter holds exactly the model block's scripts, and is the filter rebuilt from the block alone. */
    private static void assertFiltersHoldTheModelsElements(FetchPolicyRun.World world) {
        RealChain real = world.real();
        MainnetLikeChain chain = world.chain();
        ChainSource source = real.source("s", new RealChain.Log());
        for (int b = 0; b < chain.blocks(); b++) {
            Block block = block(real, b + 1);
            Map<TransactionOutPoint, byte[]> prevouts = prevouts(block);
            Set<FilterElement> expected = new HashSet<>();
            Occurrences occ = chain.occ;
            for (int i = occ.blockStart[b]; i < occ.blockStart[b + 1]; i++) {
                expected.add(FilterElement.of(RealChain.p2wpkh(pubKey(world, occ.blockScripts[i]))));
            }
            assertEquals(
                    expected,
                    new HashSet<>(BasicFilter.elements(block, op -> prevouts.get(op))),
                    "elements of block " + b);
            byte[] served = source.filters(b + 1, block.getHash()).get(0).filter();
            assertArrayEquals(BasicFilter.build(block, prevouts::get).bytes(), served, "filter of block " + b);
        }
    }

    @Test
    void everyFilterHoldsExactlyTheModelsElementsAndIsRebuiltFromTheBlockAlone() {
        assertFiltersHoldTheModelsElements(handWorld(tmp));
    }

    @Test
    void spendsAreRealInputsGroupedByTheModelsClusters() {
        FetchPolicyRun.World world = handWorld(tmp);
        RealChain real = world.real();
        assertEquals(
                List.of(List.of(0, 1), List.of(10, 11)),
                real.spendGroups(3).stream()
                        .map(g -> Arrays.stream(g).boxed().toList())
                        .toList());
        Block b3 = block(real, 4);
        // coinbase, then two spending transactions of two inputs each; no payment in block 3
        assertEquals(3, b3.getTransactions().size());
        Transaction walletSpend = b3.getTransactions().get(1);
        assertEquals(
                Set.of(real.walletPaid(0).get(0), real.walletPaid(1).get(0)),
                walletSpend.getInputs().stream()
                        .map(TransactionInput::getOutpoint)
                        .collect(Collectors.toSet()));
        Transaction background = b3.getTransactions().get(2);
        assertEquals(2, background.getInputs().size());
        // 10 spends its real output of block 0 (height 1); 11 a made-up one
        Set<Sha256Hash> block0Txids = block(real, 1).getTransactions().stream()
                .map(Transaction::getTxId)
                .collect(Collectors.toSet());
        assertTrue(block0Txids.contains(background.getInput(0).getOutpoint().hash()));
        assertTrue(!block0Txids.contains(background.getInput(1).getOutpoint().hash()));
        assertEquals(List.of(), real.spendGroups(4));
        assertEquals(2, real.walletPaid(0).size());
        assertEquals(1, real.walletSpent(0).size());
    }

    /**
     * Block 0 pays wallet script 0 and background script 10: the wallet's payment is a transaction of its own (one
     * made-up input, its one output), the background payment another, beside the coinbase.
     */
    @Test
    void aPaymentToTheWalletIsATransactionOfItsOwn() {
        RealChain real = handWorld(tmp).real();
        Block b0 = block(real, 1);
        assertEquals(3, b0.getTransactions().size());
        TransactionOutPoint paid = real.walletPaid(0).get(0);
        Transaction payment = b0.getTransactions().stream()
                .filter(t -> t.getTxId().equals(paid.hash()))
                .findFirst()
                .orElseThrow();
        assertEquals(1, payment.getInputs().size());
        assertEquals(1, payment.getOutputs().size());
        assertEquals(0, paid.index());
    }

    @Test
    void theWalletsLedgerSeesItsPaymentsAndItsSpendsOnTheHandChain() {
        FetchPolicyRun.World world = handWorld(tmp);
        LightWallet wallet = sync(world, world.chain().wallets().get(0));
        assertEquals(
                Set.of(world.real().walletPaid(0).get(1)),
                outpoints(wallet.ledger().utxos(true)));
        assertEquals(4, wallet.ledger().transactions().size(), "paid in blocks 0, 1, 4, spent in 3");
    }

    private LightWallet sync(FetchPolicyRun.World world, MainnetLikeChain.Wallet w) {
        LightWallet wallet = NewWallet.watchOnly(
                tmp.resolve("w" + w.index() + ".json"),
                List.of(HdAccount.watchOnly(
                        world.accounts()[w.index()].extendedPublicKey(),
                        AddressKind.P2WPKH,
                        Chain.ofBitcoinj(RealChain.NETWORK).addressNetwork())),
                null,
                NewWallet.Options.of(Chain.ofBitcoinj(RealChain.NETWORK))
                        .withBirthday(LightWallet.Birthday.ofHeight(w.birth() + 1))
                        .withSealing(Sealing.NONE));
        new SyncEngine(
                        wallet,
                        List.of(world.real().source("s", new RealChain.Log())),
                        SyncEngine.Options.defaults()
                                .withFetchPolicy(FetchPolicy.parse("none"))
                                .withPause(ms -> {}))
                .sync();
        return wallet;
    }

    private static Set<TransactionOutPoint> outpoints(List<Utxo> utxos) {
        return utxos.stream().map(Utxo::outpoint).collect(Collectors.toSet());
    }

    @Test
    void onAGeneratedChainFiltersMatchTheModelClustersAreTheModelsAndEveryWalletsLedgerMatchesItsPaymentsAndSpends() {
        MainnetLikeChain.Params p =
                new MainnetLikeChain.Params(120, 40, 10, 200, 1.0, 100_000, new int[] {1, 10}, new int[] {2, 3}, 250);
        MainnetLikeChain chain = MainnetLikeChain.build(p, 11, null);
        FetchPolicyRun.World world = FetchPolicyRun.world(chain, lab(tmp), 0, null);
        assertFiltersHoldTheModelsElements(world);

        Occurrences occ = chain.occ;
        Set<Integer> walletIds = new HashSet<>();
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            for (int a = 0; a < w.n(); a++) {
                walletIds.add(w.firstScript() + a);
            }
        }
        int multi = 0;
        for (int b = 0; b < chain.blocks(); b++) {
            for (int[] g : world.real().spendGroups(b)) {
                multi++;
                int c = occ.cluster[g[0]];
                if (!walletIds.contains(g[0])) {
                    // a background cluster is one transaction: all its members, spent together here
                    TreeSet<Integer> members = new TreeSet<>();
                    for (int i = occ.clusterStart[c]; i < occ.clusterStart[c + 1]; i++) {
                        members.add(occ.clusterMembers[i]);
                    }
                    assertEquals(members, Arrays.stream(g).boxed().collect(Collectors.toCollection(TreeSet::new)));
                }
                for (int s : g) {
                    assertEquals(c, occ.cluster[s], "a transaction's inputs are one model cluster");
                }
            }
        }
        assertTrue(multi > 0, "no multi-input spend in the generated chain");

        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            Set<TransactionOutPoint> expected = new HashSet<>();
            List<TransactionOutPoint> paid = new ArrayList<>();
            for (int a = 0; a < w.n(); a++) {
                int id = w.firstScript() + a;
                paid.addAll(world.real().walletPaid(id));
                expected.addAll(world.real().walletPaid(id));
                world.real().walletSpent(id).forEach(expected::remove);
            }
            assertTrue(!paid.isEmpty(), "wallet " + w.index() + " never paid");
            LightWallet wallet = sync(world, w);
            assertEquals(expected, outpoints(wallet.ledger().utxos(true)), "wallet " + w.index());
        }
    }
}
