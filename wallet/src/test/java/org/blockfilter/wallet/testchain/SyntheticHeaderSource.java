package org.blockfilter.wallet.testchain;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.NetworkParameters;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;

/**
 * A long synthetic regtest chain for storage benchmarks: real 80-byte headers (linked, solved at
 * regtest difficulty, 60 s apart) whose blocks are never fetched, and the empty BIP 158 filter
 * (one byte, N = 0) at every height, with its real filter-header chain. Grows with {@link #extend}.
 * Records the lowest height asked for headers. Kept in flat arrays (no object per block), so that
 * the source's own garbage collection does not weigh on what is measured. Not thread-safe.
 */
public final class SyntheticHeaderSource implements ChainSource {
    private static final byte[] EMPTY_FILTER = {0};
    private byte[] headers = new byte[80 * 1024];
    private byte[] hashes = new byte[32 * 1024];
    private byte[] filterHeaders = new byte[32 * 1024];
    private int size;
    /** Open addressing: the first 8 bytes of a block hash to its height + 1 (0: empty). */
    private long[] keys = new long[1 << 11];

    private int[] slots = new int[1 << 11];
    private final Sha256Hash filterHash = org.blockfilter.filters.BasicFilter.fromBytes(
                    Sha256Hash.ZERO_HASH, EMPTY_FILTER)
            .filterHash();
    public int lowestHeaderAsked = Integer.MAX_VALUE;

    public SyntheticHeaderSource(int tip) {
        Block g = NetworkParameters.of(BitcoinNetwork.REGTEST).getGenesisBlock();
        byte[] raw = new byte[80];
        System.arraycopy(g.serialize(), 0, raw, 0, 80);
        add(raw);
        extend(tip);
    }

    public void extend(int tip) {
        while (size <= tip) {
            byte[] prev = header(size - 1);
            ByteBuffer p = ByteBuffer.wrap(prev).order(ByteOrder.LITTLE_ENDIAN);
            int height = size;
            byte[] h = new byte[80];
            ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(0, 0x20000000);
            System.arraycopy(hash(height - 1).getReversedBytes(), 0, h, 4, 32);
            System.arraycopy(
                    Sha256Hash.hash(ByteBuffer.allocate(4).putInt(height).array()), 0, h, 36, 32);
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
        if ((size + 1) * 80 > headers.length) {
            headers = java.util.Arrays.copyOf(headers, headers.length * 2);
            hashes = java.util.Arrays.copyOf(hashes, hashes.length * 2);
            filterHeaders = java.util.Arrays.copyOf(filterHeaders, filterHeaders.length * 2);
        }
        if (size * 2 >= keys.length) {
            rehash();
        }
        Sha256Hash hash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(raw));
        Sha256Hash prev = size == 0 ? FilterHeaders.GENESIS_PREV : filterHeader(size - 1);
        System.arraycopy(raw, 0, headers, size * 80, 80);
        System.arraycopy(hash.getBytes(), 0, hashes, size * 32, 32);
        System.arraycopy(FilterHeaders.next(filterHash, prev).getBytes(), 0, filterHeaders, size * 32, 32);
        put(hash, size);
        size++;
    }

    private static long key(Sha256Hash h) {
        return ByteBuffer.wrap(h.getBytes()).getLong();
    }

    private void put(Sha256Hash h, int height) {
        int mask = keys.length - 1;
        int i = (int) key(h) & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        keys[i] = key(h);
        slots[i] = height + 1;
    }

    private void rehash() {
        long[] oldKeys = keys;
        int[] oldSlots = slots;
        keys = new long[oldKeys.length * 2];
        slots = new int[oldSlots.length * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldSlots[i] != 0) {
                put(hash(oldSlots[i] - 1), oldSlots[i] - 1);
            }
        }
    }

    private Integer height(Sha256Hash h) {
        int mask = keys.length - 1;
        long k = key(h);
        for (int i = (int) k & mask; slots[i] != 0; i = (i + 1) & mask) {
            if (keys[i] == k && hash(slots[i] - 1).equals(h)) {
                return slots[i] - 1;
            }
        }
        return null;
    }

    /** The block hash at {@code height}. */
    public Sha256Hash hashAt(int height) {
        return hash(height);
    }

    /** The BIP 157 filter header at {@code height}. */
    public Sha256Hash filterHeaderAt(int height) {
        return filterHeader(height);
    }

    private Sha256Hash hash(int height) {
        return Sha256Hash.wrap(java.util.Arrays.copyOfRange(hashes, height * 32, height * 32 + 32));
    }

    private Sha256Hash filterHeader(int height) {
        return Sha256Hash.wrap(java.util.Arrays.copyOfRange(filterHeaders, height * 32, height * 32 + 32));
    }

    @Override
    public String name() {
        return "synthetic";
    }

    @Override
    public int tipHeight() {
        return size - 1;
    }

    @Override
    public List<byte[]> blockHeaders(int startHeight, int count) {
        lowestHeaderAsked = Math.min(lowestHeaderAsked, startHeight);
        List<byte[]> out = new ArrayList<>();
        for (int h = startHeight; h < startHeight + count && h < size; h++) {
            out.add(header(h));
        }
        return out;
    }

    private int stop(int start, Sha256Hash stopHash, int max) {
        Integer stop = height(stopHash);
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
        return new FilterHashBatch(startHeight == 0 ? FilterHeaders.GENESIS_PREV : filterHeader(startHeight - 1), out);
    }

    @Override
    public List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash) {
        Integer stop = height(stopHash);
        if (stop == null) {
            throw new SourceException(name(), "unknown stop hash " + stopHash);
        }
        List<Sha256Hash> out = new ArrayList<>();
        for (int h = 1000; h <= stop; h += 1000) {
            out.add(filterHeader(h));
        }
        return out;
    }

    @Override
    public List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
        int stop = stop(startHeight, stopHash, 1000);
        List<BlockFilterBytes> out = new ArrayList<>();
        for (int h = startHeight; h <= stop; h++) {
            out.add(new BlockFilterBytes(hash(h), EMPTY_FILTER));
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

    /** The 80-byte header at {@code height}. */
    public byte[] header(int height) {
        return java.util.Arrays.copyOfRange(headers, height * 80, height * 80 + 80);
    }

    /** The chain work from genesis through {@code height}. */
    public java.math.BigInteger workThrough(int height) {
        // Every header claims the same bits, so every block has the same work.
        Block b = Block.read(ByteBuffer.wrap(header(0)));
        return b.getWork().multiply(java.math.BigInteger.valueOf(height + 1L));
    }
}
