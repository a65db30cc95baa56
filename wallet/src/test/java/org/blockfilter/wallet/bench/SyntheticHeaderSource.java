package org.blockfilter.wallet.bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.base.BitcoinNetwork;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;

/**
 * A long synthetic regtest chain for storage benchmarks: real 80-byte headers (linked, solved at
 * regtest difficulty, 60 s apart) whose blocks are never fetched, and the empty BIP 158 filter
 * (one byte, N = 0) at every height, with its real filter-header chain. Grows with {@link #extend}.
 * Records the lowest height asked for headers. Not thread-safe.
 */
final class SyntheticHeaderSource implements ChainSource {
    private static final byte[] EMPTY_FILTER = {0};
    private final List<byte[]> headers = new ArrayList<>();
    private final List<Sha256Hash> hashes = new ArrayList<>();
    private final Map<Sha256Hash, Integer> heights = new HashMap<>();
    private final List<Sha256Hash> filterHeaders = new ArrayList<>();
    private final Sha256Hash filterHash =
            org.blockfilter.filters.BasicFilter.fromBytes(Sha256Hash.ZERO_HASH, EMPTY_FILTER).filterHash();
    int lowestHeaderAsked = Integer.MAX_VALUE;

    SyntheticHeaderSource(int tip) {
        Block g = NetworkParameters.of(BitcoinNetwork.REGTEST).getGenesisBlock();
        byte[] raw = new byte[80];
        System.arraycopy(g.serialize(), 0, raw, 0, 80);
        add(raw);
        extend(tip);
    }

    void extend(int tip) {
        while (headers.size() <= tip) {
            byte[] prev = headers.get(headers.size() - 1);
            ByteBuffer p = ByteBuffer.wrap(prev).order(ByteOrder.LITTLE_ENDIAN);
            int height = headers.size();
            byte[] h = new byte[80];
            ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(0, 0x20000000);
            System.arraycopy(hashes.get(height - 1).getReversedBytes(), 0, h, 4, 32);
            System.arraycopy(Sha256Hash.hash(ByteBuffer.allocate(4).putInt(height).array()), 0, h, 36, 32);
            b.putInt(68, p.getInt(68) + 60); // 60 s apart: 900,000 blocks stay in the past
            b.putInt(72, 0x207fffff);
            for (int nonce = 0; ; nonce++) {
                b.putInt(76, nonce);
                byte[] hash = Sha256Hash.hashTwice(h);
                if ((hash[31] & 0xff) < 0x7f) { // below the regtest target 0x7fffff00...
                    break;
                }
            }
            add(h);
        }
    }

    private void add(byte[] raw) {
        Sha256Hash hash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(raw));
        heights.put(hash, headers.size());
        headers.add(raw);
        hashes.add(hash);
        Sha256Hash prev = filterHeaders.isEmpty() ? FilterHeaders.GENESIS_PREV : filterHeaders.get(filterHeaders.size() - 1);
        filterHeaders.add(FilterHeaders.next(filterHash, prev));
    }

    @Override
    public String name() {
        return "synthetic";
    }

    @Override
    public int tipHeight() {
        return headers.size() - 1;
    }

    @Override
    public List<byte[]> blockHeaders(int startHeight, int count) {
        lowestHeaderAsked = Math.min(lowestHeaderAsked, startHeight);
        List<byte[]> out = new ArrayList<>();
        for (int h = startHeight; h < startHeight + count && h < headers.size(); h++) {
            out.add(headers.get(h).clone());
        }
        return out;
    }

    private int stop(int start, Sha256Hash stopHash, int max) {
        Integer stop = heights.get(stopHash);
        if (stop == null || stop < start || stop - start + 1 > max) {
            throw new SourceException(name(), "bad range " + start + " " + stopHash);
        }
        return stop;
    }

    @Override
    public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
        int stop = stop(startHeight, stopHash, 2000);
        List<Sha256Hash> out = new ArrayList<>();
        for (int h = startHeight; h <= stop; h++) {
            out.add(filterHash);
        }
        return new FilterHashBatch(
                startHeight == 0 ? FilterHeaders.GENESIS_PREV : filterHeaders.get(startHeight - 1), out);
    }

    @Override
    public List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash) {
        int stop = heights.get(stopHash);
        List<Sha256Hash> out = new ArrayList<>();
        for (int h = 1000; h <= stop; h += 1000) {
            out.add(filterHeaders.get(h));
        }
        return out;
    }

    @Override
    public List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
        int stop = stop(startHeight, stopHash, 1000);
        List<BlockFilterBytes> out = new ArrayList<>();
        for (int h = startHeight; h <= stop; h++) {
            out.add(new BlockFilterBytes(hashes.get(h), EMPTY_FILTER));
        }
        return out;
    }

    @Override
    public byte[] block(Sha256Hash blockHash) {
        throw new SourceException(name(), "the synthetic chain has headers only");
    }

    @Override
    public Sha256Hash broadcast(byte[] rawTransaction) {
        throw new SourceException(name(), "no mempool");
    }

    @Override
    public void close() {}

    /** The header at {@code height} with the chain work from genesis through it. */
    byte[] header(int height) {
        return headers.get(height).clone();
    }

    java.math.BigInteger workThrough(int height) {
        // Every header claims the same bits, so every block has the same work.
        Block b = Block.read(ByteBuffer.wrap(headers.get(0)));
        return b.getWork().multiply(java.math.BigInteger.valueOf(height + 1L));
    }
}
