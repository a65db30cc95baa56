package org.blockfilter.wallet.testchain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.source.ChainSource;

/**
 * A self-consistent liar: at one height it serves the block's real filter minus one address's
 * script (under the real block's key), with filter headers and checkpoints all computed from
 * that false filter, so only the block itself can refute it. Everything else comes from the
 * honest source, which must serve {@code chain} as it is when this is made. Not thread-safe.
 */
public class OmittingSource extends LyingSource {
    private final int height;
    private final BasicFilter fake;
    private final List<Sha256Hash> fakeHeaders = new ArrayList<>();

    /** Omits {@code omitted}'s output script from the filter of the block at {@code height}. */
    public OmittingSource(String name, ChainSource honest, RegtestChainBuilder chain, int height, Address omitted) {
        super(name, honest);
        this.height = height;
        this.fake = filterWithout(
                chain.block(height), ScriptBuilder.createOutputScript(omitted).program());
        Sha256Hash prev = FilterHeaders.GENESIS_PREV;
        for (int h = 0; h <= chain.tipHeight(); h++) {
            prev = FilterHeaders.next(
                    h == height ? fake.filterHash() : chain.filter(h).filterHash(), prev);
            fakeHeaders.add(prev);
        }
    }

    /** The block's real filter minus {@code script}, under the real block's key. */
    private static BasicFilter filterWithout(Block b, byte[] script) {
        List<byte[]> items = new ArrayList<>();
        for (Transaction tx : b.getTransactions()) {
            for (TransactionOutput o : tx.getOutputs()) {
                byte[] s = o.getScriptBytes();
                if (s.length > 0 && (s[0] & 0xff) != 0x6a && !Arrays.equals(s, script)) {
                    items.add(s);
                }
            }
        }
        // Prevout of the payment: a miner coinbase output (the miner's script, already an output here).
        GolombCodedSet set = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, BasicFilter.key(b.getHash()), items);
        return BasicFilter.fromBytes(b.getHash(), set.encoded());
    }

    @Override
    public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
        FilterHashBatch real = honest.filterHeaders(startHeight, stopHash);
        List<Sha256Hash> hashes = new ArrayList<>(real.filterHashes());
        if (height >= startHeight && height < startHeight + hashes.size()) {
            hashes.set(height - startHeight, fake.filterHash());
        }
        return new FilterHashBatch(
                startHeight == 0 ? FilterHeaders.GENESIS_PREV : fakeHeaders.get(startHeight - 1), hashes);
    }

    @Override
    public List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash) {
        List<Sha256Hash> out = new ArrayList<>();
        for (Sha256Hash ignored : honest.filterCheckpoints(stopHash)) {
            out.add(fakeHeaders.get((out.size() + 1) * Bip157.CHECKPOINT_INTERVAL));
        }
        return out;
    }

    @Override
    public List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
        List<BlockFilterBytes> out = new ArrayList<>(honest.filters(startHeight, stopHash));
        if (height >= startHeight && height < startHeight + out.size()) {
            out.set(height - startHeight, new BlockFilterBytes(fake.blockHash(), fake.bytes()));
        }
        return out;
    }
}
