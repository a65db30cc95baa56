package org.blockfilter.wallet.testchain;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;

/**
 * An honest in-memory {@link ChainSource} over a {@link RegtestChainBuilder}, answering as BIP 157 says
 * (stop hash must be on its chain, limits enforced). The chain can be swapped to model a reorg.
 * Counts requests so tests can see what was fetched. Not thread-safe.
 */
public class MemorySource implements ChainSource {
    private final String name;
    private volatile RegtestChainBuilder chain;
    public int blocksServed;
    public int filtersServed;

    public MemorySource(String name, RegtestChainBuilder chain) {
        this.name = name;
        this.chain = chain;
    }

    public void switchTo(RegtestChainBuilder chain) {
        this.chain = chain;
    }

    public RegtestChainBuilder chain() {
        return chain;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int tipHeight() {
        return chain.tipHeight();
    }

    @Override
    public List<byte[]> blockHeaders(int startHeight, int count) {
        if (count < 1 || count > 2000 || startHeight < 0) {
            throw new SourceException(name, "bad header request " + startHeight + "+" + count);
        }
        List<byte[]> out = new ArrayList<>();
        for (int h = startHeight; h < startHeight + count && h <= chain.tipHeight(); h++) {
            out.add(chain.header(h));
        }
        return out;
    }

    private int stopHeight(int start, Sha256Hash stopHash, int max) {
        int stop = chain.height(stopHash);
        if (stop < 0 || stop < start || stop - start + 1 > max) {
            throw new SourceException(name, "bad range start " + start + " stop " + stopHash);
        }
        return stop;
    }

    @Override
    public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
        int stop = stopHeight(startHeight, stopHash, org.blockfilter.filters.Bip157.MAX_CFHEADERS);
        List<Sha256Hash> hashes = new ArrayList<>();
        for (int h = startHeight; h <= stop; h++) {
            hashes.add(chain.filter(h).filterHash());
        }
        Sha256Hash prev = startHeight == 0
                ? org.blockfilter.filters.FilterHeaders.GENESIS_PREV
                : chain.filterHeader(startHeight - 1);
        return new FilterHashBatch(prev, hashes);
    }

    @Override
    public List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash) {
        int stop = chain.height(stopHash);
        if (stop < 0) {
            throw new SourceException(name, "unknown stop hash " + stopHash);
        }
        List<Sha256Hash> out = new ArrayList<>();
        for (int h = org.blockfilter.filters.Bip157.CHECKPOINT_INTERVAL;
                h <= stop;
                h += org.blockfilter.filters.Bip157.CHECKPOINT_INTERVAL) {
            out.add(chain.filterHeader(h));
        }
        return out;
    }

    @Override
    public List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
        int stop = stopHeight(startHeight, stopHash, org.blockfilter.filters.Bip157.MAX_CFILTERS);
        List<BlockFilterBytes> out = new ArrayList<>();
        for (int h = startHeight; h <= stop; h++) {
            out.add(new BlockFilterBytes(
                    chain.block(h).getHash(), chain.filter(h).bytes()));
        }
        filtersServed += out.size();
        return out;
    }

    @Override
    public byte[] block(Sha256Hash blockHash) {
        int h = chain.height(blockHash);
        if (h < 0) {
            throw new SourceException(name, "unknown block " + blockHash);
        }
        blocksServed++;
        return chain.block(h).serialize();
    }

    @Override
    public Sha256Hash broadcast(byte[] rawTransaction) {
        Transaction tx = Transaction.read(ByteBuffer.wrap(rawTransaction));
        chain.accept(tx);
        return tx.getTxId();
    }

    @Override
    public void close() {}
}
