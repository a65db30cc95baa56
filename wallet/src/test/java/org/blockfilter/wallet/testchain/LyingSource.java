package org.blockfilter.wallet.testchain;

import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.wallet.source.ChainSource;

/**
 * A wrapper over an honest source that forwards everything; tests override the answer they want
 * to falsify. Not thread-safe.
 */
public class LyingSource implements ChainSource {
    protected final ChainSource honest;
    private final String name;

    public LyingSource(String name, ChainSource honest) {
        this.name = name;
        this.honest = honest;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int tipHeight() {
        return honest.tipHeight();
    }

    @Override
    public List<byte[]> blockHeaders(int startHeight, int count) {
        return honest.blockHeaders(startHeight, count);
    }

    @Override
    public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
        return honest.filterHeaders(startHeight, stopHash);
    }

    @Override
    public List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash) {
        return honest.filterCheckpoints(stopHash);
    }

    @Override
    public List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
        return honest.filters(startHeight, stopHash);
    }

    @Override
    public byte[] block(Sha256Hash blockHash) {
        return honest.block(blockHash);
    }

    @Override
    public Sha256Hash broadcast(byte[] rawTransaction) {
        return honest.broadcast(rawTransaction);
    }

    @Override
    public void close() {}
}
