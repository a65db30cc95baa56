package org.blockfilter.server.http;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.IndexedFilter;
import org.blockfilter.server.store.ChainTip;

/** A {@link FilterIndexReader} over an immutable {@link RestTestChain}. */
final class InMemoryIndex implements FilterIndexReader {
    private final RestTestChain chain;

    InMemoryIndex(RestTestChain chain) {
        this.chain = chain;
    }

    @Override
    public ChainTip tip() {
        return new ChainTip(chain.tip().height(), chain.tip().blockHash());
    }

    @Override
    public Optional<Sha256Hash> hashAt(int height) {
        return height >= 0 && height < chain.active.size()
                ? Optional.of(chain.at(height).blockHash())
                : Optional.empty();
    }

    @Override
    public OptionalInt heightOf(Sha256Hash blockHash) {
        IndexedFilter f = chain.byHash.get(blockHash);
        return f != null && f.active() ? OptionalInt.of(f.height()) : OptionalInt.empty();
    }

    @Override
    public Optional<IndexedFilter> filter(Sha256Hash blockHash) {
        return Optional.ofNullable(chain.byHash.get(blockHash));
    }

    @Override
    public Optional<List<IndexedFilter>> range(int startHeight, Sha256Hash stopHash) {
        OptionalInt stop = heightOf(stopHash);
        if (startHeight < 0 || stop.isEmpty() || stop.getAsInt() < startHeight) {
            return Optional.empty();
        }
        return Optional.of(List.copyOf(chain.active.subList(startHeight, stop.getAsInt() + 1)));
    }

    @Override
    public Optional<byte[]> blockHeader(Sha256Hash blockHash) {
        byte[] h = chain.headers.get(blockHash);
        return h == null ? Optional.empty() : Optional.of(h.clone());
    }
}
