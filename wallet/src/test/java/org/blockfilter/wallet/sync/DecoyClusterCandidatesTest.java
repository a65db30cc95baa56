package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which input scripts a block shows, and which transactions can become a decoy cluster. */
class DecoyClusterCandidatesTest {
    private static final byte[] SIG = new byte[71];

    @TempDir
    Path dir;

    private static ECKey key(int i) {
        return ECKey.fromPrivate(Sha256Hash.hash(("cluster key " + i).getBytes()));
    }

    private static int outpoints;

    private static TransactionInput input(Transaction tx, byte[] scriptSig, TransactionWitness witness) {
        TransactionOutPoint op = new TransactionOutPoint(0, Sha256Hash.of(("prev " + outpoints++).getBytes()));
        return new TransactionInput(tx, scriptSig, op, Coin.COIN).withWitness(witness);
    }

    private static TransactionInput p2wpkh(Transaction tx, ECKey k) {
        return input(tx, new byte[0], TransactionWitness.of(SIG, k.getPubKey()));
    }

    private static TransactionInput p2pkh(Transaction tx, ECKey k) {
        byte[] scriptSig =
                new ScriptBuilder().data(SIG).data(k.getPubKey()).build().program();
        return input(tx, scriptSig, TransactionWitness.EMPTY);
    }

    private static TransactionInput p2shP2wpkh(Transaction tx, ECKey k) {
        byte[] redeem = ScriptBuilder.createP2WPKHOutputScript(k).program();
        byte[] scriptSig = new ScriptBuilder().data(redeem).build().program();
        return input(tx, scriptSig, TransactionWitness.of(SIG, k.getPubKey()));
    }

    private static TransactionInput p2trKeyPath(Transaction tx) {
        return input(tx, new byte[0], TransactionWitness.of(new byte[64]));
    }

    private static OutputScript wpkh(ECKey k) {
        return OutputScript.of(ScriptBuilder.createP2WPKHOutputScript(k).program());
    }

    @Test
    void theInputScriptIsDerivedForP2wpkhP2pkhAndP2shP2wpkhButNotForAP2trKeyPathSpend() {
        Transaction tx = new Transaction();
        ECKey k = key(1);
        assertEquals(Optional.of(wpkh(k)), BlockFetcher.inputScript(p2wpkh(tx, k)));
        assertEquals(
                Optional.of(
                        OutputScript.of(ScriptBuilder.createP2PKHOutputScript(k).program())),
                BlockFetcher.inputScript(p2pkh(tx, k)));
        assertEquals(
                Optional.of(
                        OutputScript.of(ScriptBuilder.createP2SHOutputScript(ScriptBuilder.createP2WPKHOutputScript(k))
                                .program())),
                BlockFetcher.inputScript(p2shP2wpkh(tx, k)));
        assertEquals(Optional.empty(), BlockFetcher.inputScript(p2trKeyPath(tx)));
    }

    private static Transaction tx(List<java.util.function.Function<Transaction, TransactionInput>> inputs) {
        Transaction tx = new Transaction();
        for (var in : inputs) {
            tx.addInput(in.apply(tx));
        }
        tx.addOutput(Coin.CENT, ScriptBuilder.createP2WPKHOutputScript(key(99)));
        return tx;
    }

    @Test
    void onlyMultiInputTransactionsWhoseInputsAreAllDerivableAndNoneTheWalletsAreCandidates() {
        LightWallet w = TestWallets.create(dir);
        ECKey own = ECKey.fromPublicOnly(
                w.keys().account(AddressKind.P2WPKH).orElseThrow().key(false, 0).getPubKey());
        List<Transaction> txs = new ArrayList<>();
        Transaction cb = new Transaction();
        cb.addInput(TransactionInput.coinbaseInput(cb, new byte[] {2, 1, 1}));
        cb.addOutput(Coin.FIFTY_COINS, ScriptBuilder.createP2WPKHOutputScript(key(98)));
        txs.add(cb);
        Transaction twoWitness = tx(List.of(t -> p2wpkh(t, key(1)), t -> p2wpkh(t, key(2))));
        Transaction withTaproot = tx(List.of(t -> p2wpkh(t, key(3)), t -> p2trKeyPath(t)));
        Transaction withOwn = tx(List.of(t -> p2wpkh(t, key(4)), t -> p2wpkh(t, own)));
        Transaction single = tx(List.of(t -> p2wpkh(t, key(5))));
        Transaction legacyMix = tx(List.of(t -> p2pkh(t, key(6)), t -> p2shP2wpkh(t, key(7))));
        Transaction sameKeyTwice = tx(List.of(t -> p2wpkh(t, key(8)), t -> p2wpkh(t, key(8))));
        txs.addAll(List.of(twoWitness, withTaproot, withOwn, single, legacyMix, sameKeyTwice));
        Block block =
                new Block(Block.BLOCK_VERSION_BIP65, Sha256Hash.ZERO_HASH, null, Instant.EPOCH, 0x207fffffL, 0, txs);

        BlockFetcher fetcher = new BlockFetcher(
                new SyncState(new LightWalletTarget(w)), null, FetchPolicy.parse("clusters=1"), ms -> {});
        List<List<OutputScript>> candidates = fetcher.clusterCandidates(block);

        Set<Set<OutputScript>> got = candidates.stream().map(Set::copyOf).collect(Collectors.toSet());
        assertEquals(
                Set.of(
                        Set.of(wpkh(key(1)), wpkh(key(2))),
                        Set.of(
                                BlockFetcher.inputScript(legacyMix.getInput(0)).orElseThrow(),
                                BlockFetcher.inputScript(legacyMix.getInput(1)).orElseThrow())),
                got);
        assertTrue(candidates.stream().allMatch(c -> c.size() == 2));
    }
}
