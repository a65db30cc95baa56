package org.blockfilter.regtest.embedded;

import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.regtest.embedded.internal.Consensus;
import org.blockfilter.regtest.embedded.internal.OutPoint;
import org.blockfilter.regtest.embedded.internal.TxSigner;
import org.blockfilter.regtest.embedded.internal.Utxo;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A small deterministic generator for the embedded node's demo chain: a few wallets, each with a
 * P2PKH and a P2WPKH key, mine the first blocks, then pay each other (one or two inputs, change
 * back to the sender, a fee, now and then an OP_RETURN) in most blocks. Block times start at
 * {@link #START} and advance ten minutes a block. Same seed, same chain, byte for byte.
 *
 * <p>Not thread-safe; use once.
 */
final class DemoChain {
    static final Instant START = Instant.parse("2025-01-01T00:00:00Z");
    static final Duration BLOCK_INTERVAL = Duration.ofMinutes(10);
    private static final int WALLETS = 6;

    private final EmbeddedNode node;
    private final SettableClock clock;
    private final Random random;
    private final List<ECKey> keys = new ArrayList<>();
    private final Map<ByteBuffer, ECKey> owners = new HashMap<>();
    private final List<byte[]> scripts = new ArrayList<>();
    private int transactions;

    private DemoChain(EmbeddedNode node, SettableClock clock, long seed) {
        this.node = node;
        this.clock = clock;
        this.random = new Random(seed);
        for (int i = 0; i < WALLETS * 2; i++) {
            byte[] material = ByteBuffer.allocate(16).putLong(seed).putLong(i).array();
            ECKey key = ECKey.fromPrivate(Sha256Hash.hash(material));
            byte[] script = (i % 2 == 0 ? ScriptBuilder.createP2PKHOutputScript(key)
                    : ScriptBuilder.createP2WPKHOutputScript(key)).program();
            keys.add(key);
            scripts.add(script);
            owners.put(ByteBuffer.wrap(script), key);
        }
    }

    /**
     * Mines {@code blocks} blocks on {@code node} (which must be fresh) with the clock at
     * {@link #START} plus ten minutes a block.
     *
     * @return the number of non-coinbase transactions mined
     */
    static int build(EmbeddedNode node, SettableClock clock, int blocks, long seed) {
        if (blocks < 0) {
            throw new IllegalArgumentException("blocks must not be negative: " + blocks);
        }
        if (node.tipHeight() != 0) {
            throw new IllegalStateException("the demo chain needs a fresh node, not one at height " + node.tipHeight());
        }
        DemoChain demo = new DemoChain(node, clock, seed);
        clock.set(START);
        for (int h = 1; h <= blocks; h++) {
            clock.advance(BLOCK_INTERVAL);
            demo.makePayments(h);
            byte[] payout = demo.scripts.get(demo.random.nextInt(demo.scripts.size()));
            node.chain().mine(1, payout);
        }
        return demo.transactions;
    }

    private void makePayments(int height) {
        if (random.nextInt(8) == 0) {
            return; // some blocks stay empty
        }
        List<Map.Entry<OutPoint, Utxo>> coins = spendable(height);
        int payments = random.nextInt(6);
        for (int p = 0; p < payments && !coins.isEmpty(); p++) {
            int inputs = Math.min(coins.size(), 1 + (random.nextInt(4) == 0 ? 1 : 0));
            List<TxSigner.Input> spend = new ArrayList<>();
            long total = 0;
            for (int i = 0; i < inputs; i++) {
                Map.Entry<OutPoint, Utxo> coin = coins.remove(random.nextInt(coins.size()));
                byte[] script = coin.getValue().script();
                spend.add(new TxSigner.Input(coin.getKey(), coin.getValue().value(), script, owners.get(ByteBuffer.wrap(script))));
                total += coin.getValue().value();
            }
            long fee = 1_000 + random.nextInt(4_000);
            long amount = (long) ((total - fee) * (0.05 + 0.6 * random.nextDouble()));
            long change = total - fee - amount;
            Transaction tx = new Transaction();
            tx.addOutput(new TransactionOutput(tx, Coin.valueOf(amount), scripts.get(random.nextInt(scripts.size()))));
            if (change > 546) {
                tx.addOutput(new TransactionOutput(tx, Coin.valueOf(change), spend.get(0).script()));
            }
            if (random.nextInt(10) == 0) {
                tx.addOutput(Coin.ZERO, ScriptBuilder.createOpReturnScript(
                        ("blockfilter demo " + height + "/" + p).getBytes(StandardCharsets.US_ASCII)));
            }
            TxSigner.addInputs(tx, spend);
            TxSigner.sign(tx, spend);
            node.submitTransaction(tx.serialize());
            transactions++;
        }
    }

    /** Our mature confirmed coins, in a fixed order so the random choices are reproducible. */
    private List<Map.Entry<OutPoint, Utxo>> spendable(int nextHeight) {
        List<Map.Entry<OutPoint, Utxo>> coins = new ArrayList<>();
        for (Map.Entry<OutPoint, Utxo> e : node.chain().utxoSnapshot().entrySet()) {
            Utxo u = e.getValue();
            if (owners.containsKey(ByteBuffer.wrap(u.script()))
                    && (!u.coinbase() || nextHeight - u.height() >= Consensus.COINBASE_MATURITY)
                    && u.value() > 10_000) {
                coins.add(e);
            }
        }
        coins.sort(Comparator.<Map.Entry<OutPoint, Utxo>>comparingInt(e -> e.getValue().height())
                .thenComparing(e -> e.getKey().txid().toString())
                .thenComparingLong(e -> e.getKey().index()));
        return coins;
    }
}
