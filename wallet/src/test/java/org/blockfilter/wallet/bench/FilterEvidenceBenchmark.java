package org.blockfilter.wallet.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.internal.CryptoUtils;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.wallet.sync.FilterEvidence;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the sync engine does to check a downloaded block's filter: {@link FilterEvidence#refute} of the block's true
 * basic filter (the common case: nothing is refuted, so every required script is looked up) against the naive peer in
 * the same run, one {@link BasicFilter#match} (one walk of the filter) per required script, which is how refute
 * worked before it made one pass. The block is {@code txs} transactions of one P2WPKH spend and two P2WPKH outputs,
 * so every prevout is reconstructed and the evidence also holds the rebuilt filter: 2,500 transactions is 7,500
 * elements, a mainnet block (about 7,600 filter elements). Reports blocks checked per second. {@code seedScripts*}
 * time decoy adoption's question of a look-back filter (which of a seed block's scripts it holds) in one walk and in a
 * walk per script.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FilterEvidenceBenchmark {
    @Param({"250", "2500"})
    int txs;

    private FilterEvidence evidence;
    private BasicFilter filter;
    private List<byte[]> required;

    @Setup
    public void setup() {
        Random r = new Random(1);
        List<Transaction> block = new ArrayList<>();
        Transaction cb = Transaction.coinbase(new byte[] {2, 1, 0});
        cb.addOutput(new TransactionOutput(cb, Coin.COIN, p2wpkh(r)));
        block.add(cb);
        Map<TransactionOutPoint, byte[]> prevouts = new HashMap<>();
        required = new ArrayList<>();
        required.add(cb.getOutput(0).getScriptBytes());
        byte[] sig = new byte[72];
        for (int t = 0; t < txs; t++) {
            Transaction tx = new Transaction();
            byte[] key = new byte[33];
            r.nextBytes(key);
            key[0] = 0x02;
            byte[] prev = ScriptBuilder.createP2WPKHOutputScript(CryptoUtils.sha256hash160(key))
                    .program();
            byte[] id = new byte[32];
            r.nextBytes(id);
            TransactionOutPoint op = new TransactionOutPoint(0, Sha256Hash.wrap(id));
            prevouts.put(op, prev);
            required.add(prev);
            tx.addInput(new TransactionInput(tx, new byte[0], op, Coin.SATOSHI)
                    .withWitness(TransactionWitness.of(sig, key)));
            for (int o = 0; o < 2; o++) {
                byte[] out = p2wpkh(r);
                tx.addOutput(new TransactionOutput(tx, Coin.SATOSHI, out));
                required.add(out);
            }
            block.add(tx);
        }
        Block b =
                new Block(Block.BLOCK_VERSION_BIP65, Sha256Hash.ZERO_HASH, null, Instant.EPOCH, 0x207fffffL, 0, block);
        filter = BasicFilter.build(b, prevouts::get);
        evidence = FilterEvidence.of(b, op -> null);
        if (evidence.refute(filter).isPresent() || !evidence.decisive()) {
            throw new IllegalStateException("the block's own filter must pass and be rebuilt");
        }
    }

    private static byte[] p2wpkh(Random r) {
        byte[] h = new byte[20];
        r.nextBytes(h);
        return ScriptBuilder.createP2WPKHOutputScript(h).program();
    }

    @Benchmark
    public boolean refuteOnePass() {
        return evidence.refute(filter).isPresent();
    }

    /**
     * Decoy adoption's question per filter of the look-back window: which of a seed block's scripts (here the block's
     * own, so every one is present) this filter holds, in one walk ({@link BasicFilter#matchEach}).
     */
    @Benchmark
    public boolean[] seedScriptsOnePass() {
        return filter.matchEach(required);
    }

    /** The same question with one walk per script, as adoption asked it before. */
    @Benchmark
    public int seedScriptsPerScript() {
        int present = 0;
        for (byte[] s : required) {
            present += filter.matchAny(List.of(s)) ? 1 : 0;
        }
        return present;
    }

    @Benchmark
    public boolean matchEachRequired() {
        boolean all = true;
        for (byte[] s : required) {
            all &= filter.match(s);
        }
        return all;
    }
}
