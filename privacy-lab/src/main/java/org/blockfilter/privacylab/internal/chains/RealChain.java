package org.blockfilter.privacylab.internal.chains;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.internal.CryptoUtils;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.privacylab.internal.report.Progress;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;

/**
 * A real regtest chain (headers with proof of work, merkle roots, BIP 141 witness commitments, BIP 158 basic filters
 * and filter headers) whose block {@code b + 1} carries the scripts of block {@code b} of a {@link MainnetLikeChain},
 * each script id a P2WPKH script of a public key (the wallets' real HD keys for their ids, a pseudo-key
 * {@code 0x02 || SHA-256(seed, id)} for the others, see {@link #pseudoPubKey}).
 *
 * <p>Every appearance of a script in the model becomes an output or an input, so each block's filter holds exactly the
 * model block's elements. The model keeps which scripts a block holds and which scripts were spent together
 * (common-input clusters), not which appearance was a payment and which a spend, so this chain reads them so:
 *
 * <ul>
 *   <li>a pool script (id below the pool size) is always paid;</li>
 *   <li>any other non-wallet script is spent at its last appearance when it appears more than once or belongs to a
 *   cluster of two or more (the model's single-use outputs are created, then spent once; a clustered script that
 *   appears once is a spend of an output older than the chain), and paid at its other appearances;</li>
 *   <li>a wallet script is spent whenever it has an unspent output here, else paid (so payments and spends
 *   alternate).</li>
 * </ul>
 *
 * The spends of one block are grouped into one transaction per model cluster (the common-input heuristic finds
 * exactly the model's clusters among non-wallet scripts, and a subset of a wallet's cluster links). A spend spends
 * the real earlier output of its script when this chain created one and it is unspent, else a made-up outpoint whose
 * prevout script this chain supplies to the filter builder. Its witness is {@code [placeholder signature, public
 * key]} (P2WPKH), so the prevout script is derivable from the block. A spending transaction pays one zero-value
 * OP_RETURN output (not in any filter). A payment to a wallet script is a transaction of its own, as a wallet receives
 * one: a made-up input whose prevout is not in the filter (an empty script) and its one output of 1 satoshi; the
 * other payments of a block are the outputs, 1 satoshi each, of one such transaction (so a wallet stores transactions
 * of payment size, not one of a block's thousands of outputs). Immutable after construction; thread-safe to read.
 */
public final class RealChain {
    public static final BitcoinNetwork NETWORK = BitcoinNetwork.REGTEST;
    static final NetworkParameters PARAMS = NetworkParameters.of(NETWORK);

    /** A DER-shaped 71-byte stand-in for a signature: nothing here checks signatures. */
    private static final byte[] PLACEHOLDER_SIG = placeholderSig();

    private static final byte[] OP_RETURN = {0x6a};

    private final List<byte[]> raw = new ArrayList<>();
    private final List<byte[]> headers = new ArrayList<>();
    private final List<Sha256Hash> hashes = new ArrayList<>();
    private final List<byte[]> filters = new ArrayList<>();
    private final List<Sha256Hash> filterHashes = new ArrayList<>();
    private final List<Sha256Hash> filterHeaders = new ArrayList<>();
    private final Map<Sha256Hash, Integer> heights = new HashMap<>();
    /** Per wallet script id: the outputs paid to it here and the ones spent, in chain order. */
    private final Map<Integer, List<TransactionOutPoint>> walletPaid = new HashMap<>();

    private final Map<Integer, List<TransactionOutPoint>> walletSpent = new HashMap<>();

    /** Multi-input transactions per model block, as script-id groups (for tests and the report). */
    private final List<List<int[]>> spendGroups = new ArrayList<>();

    /**
     * @param chain  the model chain
     * @param pubKey the 33-byte public key of a script id (the wallets' real keys for their ids, else
     *               {@link #pseudoPubKey})
     */
    public RealChain(MainnetLikeChain chain, IntFunction<byte[]> pubKey, Progress progress) {
        Context.propagate(new Context());
        Block genesis = PARAMS.getGenesisBlock();
        add(genesis, BasicFilter.build(genesis, op -> {
            throw new IllegalStateException("genesis spends nothing");
        }));
        byte[] miner = {0x6a, 0x04, 0x65, 0x78, 0x70, 0x38}; // OP_RETURN "exp8": not in any filter
        Block prev = genesis;
        Occurrences occ = chain.occ;
        int pool = chain.params.poolSize();
        boolean[] wallet = new boolean[occ.scripts];
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            for (int a = 0; a < w.n(); a++) {
                wallet[w.firstScript() + a] = true;
            }
        }
        Unspent unspent = new Unspent(occ.scripts, occ.blockStart[occ.blocks]);
        for (int b = 0; b < chain.blocks(); b++) {
            int height = b + 1;
            Transaction cb = new Transaction();
            cb.addInput(TransactionInput.coinbaseInput(
                    cb, new ScriptBuilder().number(height).number(7).build().program()));
            cb.addOutput(new TransactionOutput(cb, Coin.FIFTY_COINS, miner));
            Transaction pay = new Transaction();
            pay.addInput(new TransactionInput(
                    pay,
                    new byte[0],
                    new TransactionOutPoint(0, Sha256Hash.of(("exp8 input " + chain.seed + " " + b).getBytes())),
                    Coin.SATOSHI));
            Map<Integer, List<Integer>> spends = new TreeMap<>(); // cluster -> script ids, in id order
            List<Integer> paid = new ArrayList<>();
            for (int i = occ.blockStart[b]; i < occ.blockStart[b + 1]; i++) {
                int id = occ.blockScripts[i];
                boolean spend;
                if (id < pool) {
                    spend = false;
                } else if (wallet[id]) {
                    spend = unspent.has(id);
                } else {
                    int appearances = occ.scriptStart[id + 1] - occ.scriptStart[id];
                    int c = occ.cluster[id];
                    int clusterSize = occ.clusterStart[c + 1] - occ.clusterStart[c];
                    boolean last = occ.scriptBlocks[occ.scriptStart[id + 1] - 1] == b;
                    spend = last && (appearances > 1 || clusterSize > 1);
                }
                if (spend) {
                    spends.computeIfAbsent(occ.cluster[id], k -> new ArrayList<>())
                            .add(id);
                } else {
                    paid.add(id);
                }
            }
            Map<TransactionOutPoint, byte[]> prevouts = new HashMap<>();
            List<Transaction> spendTxs = new ArrayList<>();
            List<int[]> groups = new ArrayList<>();
            for (List<Integer> group : spends.values()) {
                Transaction tx = new Transaction();
                for (int id : group) {
                    byte[] key = pubKey.apply(id);
                    TransactionOutPoint op;
                    if (unspent.has(id)) {
                        op = unspent.removeFirst(id);
                        if (wallet[id]) {
                            walletSpent
                                    .computeIfAbsent(id, k -> new ArrayList<>())
                                    .add(op);
                        }
                    } else {
                        op = new TransactionOutPoint(
                                0, Sha256Hash.of(("exp8 prevout " + chain.seed + " " + id).getBytes()));
                    }
                    prevouts.put(op, p2wpkh(key));
                    tx.addInput(new TransactionInput(tx, new byte[0], op, Coin.SATOSHI)
                            .withWitness(TransactionWitness.of(PLACEHOLDER_SIG, key)));
                }
                tx.addOutput(new TransactionOutput(tx, Coin.ZERO, OP_RETURN));
                spendTxs.add(tx);
                if (group.size() > 1) {
                    groups.add(group.stream().mapToInt(Integer::intValue).toArray());
                }
            }
            spendGroups.add(List.copyOf(groups));
            List<Integer> background = new ArrayList<>();
            List<Transaction> walletPayments = new ArrayList<>();
            for (int id : paid) {
                if (!wallet[id]) {
                    background.add(id);
                    pay.addOutput(new TransactionOutput(pay, Coin.SATOSHI, p2wpkh(pubKey.apply(id))));
                    continue;
                }
                Transaction one = new Transaction();
                one.addInput(new TransactionInput(
                        one,
                        new byte[0],
                        new TransactionOutPoint(
                                0, Sha256Hash.of(("exp8 payment " + chain.seed + " " + b + " " + id).getBytes())),
                        Coin.SATOSHI));
                one.addOutput(new TransactionOutput(one, Coin.SATOSHI, p2wpkh(pubKey.apply(id))));
                walletPayments.add(one);
                TransactionOutPoint op = new TransactionOutPoint(0, one.getTxId());
                unspent.addLast(id, unspent.tx(op.hash()), 0);
                walletPaid.computeIfAbsent(id, k -> new ArrayList<>()).add(op);
            }
            List<Transaction> txs = new ArrayList<>(List.of(cb));
            if (!background.isEmpty()) {
                txs.add(pay);
                int tx = unspent.tx(pay.getTxId());
                for (int o = 0; o < background.size(); o++) {
                    unspent.addLast(background.get(o), tx, o);
                }
            }
            txs.addAll(walletPayments);
            txs.addAll(spendTxs);
            if (!spendTxs.isEmpty()) {
                commitWitnesses(cb, txs);
            }
            Block block = new Block(
                    Block.BLOCK_VERSION_BIP65,
                    prev.getHash(),
                    null,
                    Instant.ofEpochSecond(prev.time().getEpochSecond() + 600),
                    prev.getDifficultyTarget(),
                    0,
                    txs);
            block.solve();
            Block parsed = Block.read(ByteBuffer.wrap(block.serialize()));
            add(parsed, BasicFilter.build(parsed, op -> prevouts.getOrDefault(op, new byte[0])));
            prev = parsed;
            if (progress != null) {
                progress.add(1);
            }
        }
    }

    /**
     * The outputs this chain paid and has not spent, per script id oldest first (a queue per id in flat arrays: a
     * mainnet-sized chain pays millions of outputs, too many for a map of objects). Build-time only.
     */
    private static final class Unspent {
        private final List<Sha256Hash> txids = new ArrayList<>();
        /** Per script id its oldest and newest unspent output's node, -1 for none. */
        private final int[] head;

        private final int[] tail;
        /** Per node: (transaction index << 32 | output index), and the id's next node (-1 for none). */
        private final long[] output;

        private final int[] next;
        private int nodes;

        Unspent(int scripts, int maxOutputs) {
            head = new int[scripts];
            tail = new int[scripts];
            Arrays.fill(head, -1);
            Arrays.fill(tail, -1);
            output = new long[maxOutputs];
            next = new int[maxOutputs];
        }

        /** The index of a transaction whose outputs are added. */
        int tx(Sha256Hash txid) {
            txids.add(txid);
            return txids.size() - 1;
        }

        void addLast(int id, int tx, int index) {
            int node = nodes++;
            output[node] = (long) tx << 32 | index;
            next[node] = -1;
            if (tail[id] < 0) {
                head[id] = node;
            } else {
                next[tail[id]] = node;
            }
            tail[id] = node;
        }

        boolean has(int id) {
            return head[id] >= 0;
        }

        TransactionOutPoint removeFirst(int id) {
            int node = head[id];
            head[id] = next[node];
            if (head[id] < 0) {
                tail[id] = -1;
            }
            return new TransactionOutPoint(output[node] & 0xffffffffL, txids.get((int) (output[node] >>> 32)));
        }
    }

    /** BIP 141: the coinbase's witness is 32 zero bytes and it commits to the witness root with them. */
    private static void commitWitnesses(Transaction cb, List<Transaction> txs) {
        byte[] reserved = new byte[32];
        cb.replaceInput(0, cb.getInput(0).withWitness(TransactionWitness.of(reserved)));
        Sha256Hash root = new Block(Block.BLOCK_VERSION_BIP65, Sha256Hash.ZERO_HASH, null, Instant.EPOCH, 0, 0, txs)
                .getWitnessRoot();
        byte[] commitment = Sha256Hash.hashTwice(root.serialize(), 0, 32, reserved, 0, 32);
        byte[] script = new byte[38];
        script[0] = 0x6a;
        script[1] = 0x24;
        script[2] = (byte) 0xaa;
        script[3] = 0x21;
        script[4] = (byte) 0xa9;
        script[5] = (byte) 0xed;
        System.arraycopy(commitment, 0, script, 6, 32);
        cb.addOutput(new TransactionOutput(cb, Coin.ZERO, script));
    }

    /** A stand-in public key for a non-wallet script id: {@code 0x02 || SHA-256(seed, id)} (not checked on a curve). */
    public static byte[] pseudoPubKey(long seed, int id) {
        byte[] key = new byte[33];
        key[0] = 0x02;
        System.arraycopy(
                Sha256Hash.hash(ByteBuffer.allocate(12).putLong(seed).putInt(id).array()), 0, key, 1, 32);
        return key;
    }

    /** The P2WPKH output script of a public key. */
    public static byte[] p2wpkh(byte[] pubKey) {
        return ScriptBuilder.createP2WPKHOutputScript(CryptoUtils.sha256hash160(pubKey))
                .program();
    }

    private static byte[] placeholderSig() {
        byte[] sig = new byte[71];
        sig[0] = 0x30;
        sig[1] = 0x44;
        sig[2] = 0x02;
        sig[3] = 0x20;
        Arrays.fill(sig, 4, 36, (byte) 0x11);
        sig[36] = 0x02;
        sig[37] = 0x20;
        Arrays.fill(sig, 38, 70, (byte) 0x22);
        sig[70] = 0x01; // SIGHASH_ALL
        return sig;
    }

    /** The outputs paid here to a wallet script id, in chain order (empty for a non-wallet id). */
    public List<TransactionOutPoint> walletPaid(int id) {
        return List.copyOf(walletPaid.getOrDefault(id, List.of()));
    }

    /** The outputs of a wallet script id spent here, in chain order. */
    public List<TransactionOutPoint> walletSpent(int id) {
        return List.copyOf(walletSpent.getOrDefault(id, List.of()));
    }

    /** The multi-input spends of model block b, as groups of script ids. */
    public List<int[]> spendGroups(int b) {
        return spendGroups.get(b);
    }

    /** The serialized size in bytes of the block at a height. */
    public int rawSize(int height) {
        return raw.get(height).length;
    }

    /** The raw block at a height (a copy). */
    public byte[] rawBlock(int height) {
        return raw.get(height).clone();
    }

    private void add(Block block, BasicFilter filter) {
        int h = raw.size();
        raw.add(block.serialize());
        headers.add(block.cloneAsHeader().serialize());
        hashes.add(block.getHash());
        heights.put(block.getHash(), h);
        filters.add(filter.bytes());
        filterHashes.add(filter.filterHash());
        filterHeaders.add(FilterHeaders.next(
                filter.filterHash(), h == 0 ? FilterHeaders.GENESIS_PREV : filterHeaders.get(h - 1)));
    }

    public int tipHeight() {
        return raw.size() - 1;
    }

    long filterBytes(int fromHeight) {
        long sum = 0;
        for (int h = fromHeight; h <= tipHeight(); h++) {
            sum += filters.get(h).length;
        }
        return sum;
    }

    /** One request a source received: the source, what, the heights, the order and the simulated clock. */
    public record Request(String source, boolean block, int from, int to, long seq, long clockMillis) {}

    /** Where every source of one simulated network logs its requests, with a simulated clock. Not thread-safe. */
    public static final class Log {
        public final List<Request> requests = new ArrayList<>();
        long clock;

        public void pause(long millis) {
            clock += millis;
        }

        void add(String source, boolean block, int from, int to) {
            requests.add(new Request(source, block, from, to, requests.size(), clock++));
        }
    }

    /** An honest source over this chain that logs each filter and block request. Not thread-safe. */
    public ChainSource source(String name, Log log) {
        return source(name, log, tipHeight());
    }

    /**
     * An honest source over this chain as it was when its tip was at height {@code tip} (a later block is unknown to
     * it), logging each filter and block request: what a wallet that syncs as the chain grows talks to. Not
     * thread-safe.
     */
    public ChainSource source(String name, Log log, int tip) {
        if (tip < 0 || tip > tipHeight()) {
            throw new IllegalArgumentException("tip " + tip + " outside 0.." + tipHeight());
        }
        return new ChainSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public int tipHeight() {
                return tip;
            }

            @Override
            public List<byte[]> blockHeaders(int startHeight, int count) {
                List<byte[]> out = new ArrayList<>();
                for (int h = startHeight; h < startHeight + count && h <= tipHeight(); h++) {
                    out.add(headers.get(h).clone());
                }
                return out;
            }

            private int stop(int start, Sha256Hash stopHash, int max) {
                Integer stop = heights.get(stopHash);
                if (stop == null || stop > tip || stop < start || stop - start + 1 > max) {
                    throw new SourceException(name, "bad range " + start + ".." + stopHash);
                }
                return stop;
            }

            @Override
            public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
                int stop = stop(startHeight, stopHash, Bip157.MAX_CFHEADERS);
                return new FilterHashBatch(
                        startHeight == 0 ? FilterHeaders.GENESIS_PREV : filterHeaders.get(startHeight - 1),
                        filterHashes.subList(startHeight, stop + 1));
            }

            @Override
            public List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash) {
                int stop = stop(0, stopHash, Integer.MAX_VALUE);
                List<Sha256Hash> out = new ArrayList<>();
                for (int h = Bip157.CHECKPOINT_INTERVAL; h <= stop; h += Bip157.CHECKPOINT_INTERVAL) {
                    out.add(filterHeaders.get(h));
                }
                return out;
            }

            @Override
            public List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
                int stop = stop(startHeight, stopHash, Bip157.MAX_CFILTERS);
                log.add(name, false, startHeight, stop);
                List<BlockFilterBytes> out = new ArrayList<>();
                for (int h = startHeight; h <= stop; h++) {
                    out.add(new BlockFilterBytes(hashes.get(h), filters.get(h)));
                }
                return out;
            }

            @Override
            public byte[] block(Sha256Hash blockHash) {
                Integer h = heights.get(blockHash);
                if (h == null || h > tip) {
                    throw new SourceException(name, "unknown block " + blockHash);
                }
                log.add(name, true, h, h);
                return raw.get(h).clone();
            }

            @Override
            public Sha256Hash broadcast(byte[] rawTransaction) {
                throw new SourceException(name, "the lab's chain takes no transactions");
            }

            @Override
            public void close() {}
        };
    }
}
