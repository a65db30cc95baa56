package org.blockfilter.privacylab.internal;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;

/**
 * A real regtest chain (headers with proof of work, merkle roots, BIP 158 basic filters and filter headers) whose
 * block {@code b + 1} carries the scripts of block {@code b} of a {@link MainnetLikeChain}: a coinbase, then one
 * transaction with one input (a made-up outpoint, so no prevout enters the filter) and one 1-satoshi output per
 * script of the block, the wallets' script ids replaced by their real HD scripts. Every appearance of a script is
 * thus an output (a spend in the model is an output here: the filter and the download pattern are the same, the
 * wallet's ledger counts it as a receipt). Immutable after construction; thread-safe to read.
 */
final class RealChain {
    static final BitcoinNetwork NETWORK = BitcoinNetwork.REGTEST;
    static final NetworkParameters PARAMS = NetworkParameters.of(NETWORK);

    private final List<byte[]> raw = new ArrayList<>();
    private final List<byte[]> headers = new ArrayList<>();
    private final List<Sha256Hash> hashes = new ArrayList<>();
    private final List<byte[]> filters = new ArrayList<>();
    private final List<Sha256Hash> filterHashes = new ArrayList<>();
    private final List<Sha256Hash> filterHeaders = new ArrayList<>();
    private final Map<Sha256Hash, Integer> heights = new HashMap<>();

    /**
     * @param chain  the model chain
     * @param script the script bytes of a script id (the wallets' real scripts for their ids)
     */
    RealChain(MainnetLikeChain chain, IntFunction<byte[]> script, Progress progress) {
        Context.propagate(new Context());
        Block genesis = PARAMS.getGenesisBlock();
        add(genesis, BasicFilter.build(genesis, op -> {
            throw new IllegalStateException("genesis spends nothing");
        }));
        byte[] miner = {0x6a, 0x04, 0x65, 0x78, 0x70, 0x38}; // OP_RETURN "exp8": not in any filter
        Block prev = genesis;
        Occurrences occ = chain.occ;
        for (int b = 0; b < chain.blocks(); b++) {
            int height = b + 1;
            Transaction cb = new Transaction();
            cb.addInput(TransactionInput.coinbaseInput(
                    cb, new ScriptBuilder().number(height).number(7).build().program()));
            cb.addOutput(new TransactionOutput(cb, Coin.FIFTY_COINS, miner));
            Transaction tx = new Transaction();
            tx.addInput(new TransactionInput(
                    tx,
                    new byte[0],
                    new TransactionOutPoint(0, Sha256Hash.of(("exp8 input " + chain.seed + " " + b).getBytes())),
                    Coin.SATOSHI));
            for (int i = occ.blockStart[b]; i < occ.blockStart[b + 1]; i++) {
                tx.addOutput(new TransactionOutput(tx, Coin.SATOSHI, script.apply(occ.blockScripts[i])));
            }
            List<Transaction> txs = new ArrayList<>(List.of(cb));
            if (tx.getOutputs().size() > 0) {
                txs.add(tx);
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
            add(parsed, BasicFilter.build(parsed, op -> new byte[0]));
            prev = parsed;
            if (progress != null) {
                progress.add(1);
            }
        }
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

    int tipHeight() {
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
    record Request(String source, boolean block, int from, int to, long seq, long clockMillis) {}

    /** Where every source of one simulated network logs its requests, with a simulated clock. Not thread-safe. */
    static final class Log {
        final List<Request> requests = new ArrayList<>();
        long clock;

        void pause(long millis) {
            clock += millis;
        }

        void add(String source, boolean block, int from, int to) {
            requests.add(new Request(source, block, from, to, requests.size(), clock++));
        }
    }

    /** An honest source over this chain that logs each filter and block request. Not thread-safe. */
    ChainSource source(String name, Log log) {
        return new ChainSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public int tipHeight() {
                return RealChain.this.tipHeight();
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
                if (stop == null || stop < start || stop - start + 1 > max) {
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
                if (h == null) {
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
