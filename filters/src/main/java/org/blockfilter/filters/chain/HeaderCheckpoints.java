package org.blockfilter.filters.chain;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.CheckpointManager;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.StoredBlock;
import org.bitcoinj.params.MainNetParams;
import org.bitcoinj.params.SigNetParams;
import org.bitcoinj.params.TestNet3Params;

/**
 * The block-header checkpoints shipped for each network: points a header chain may start from
 * instead of genesis, each with its height, its 80-byte header and the chain work up to it. Every
 * list starts with the network's genesis ({@link Chain#genesisCheckpoint()}); every other entry is
 * at a difficulty-retarget boundary (a multiple of 2016), so that a chain started there can check
 * the next retarget exactly ({@link DifficultyRules}).
 *
 * <p>Where the entries come from, read with bitcoinj's own {@link CheckpointManager} (its textual
 * format: per entry the chain work, the height and the header):
 *
 * <ul>
 *   <li>mainnet, testnet3, signet: the files bitcoinj-core 0.17.1 ships in its jar
 *       ({@code org.bitcoin.production.checkpoints.txt}: every 2016th block up to 878,976;
 *       {@code org.bitcoin.test.checkpoints.txt}: up to 3,612,672;
 *       {@code org.bitcoin.signet.checkpoints.txt}: up to 229,824), read from bitcoinj's jar as is;
 *   <li>testnet4: bitcoinj 0.17.1 has none; this module ships the file RSK's rskj keeps in the same
 *       format ({@code rskj-core/src/main/resources/rskbitcoincheckpoints/org.bitcoin.testnet4.checkpoints}
 *       at rsksmart/rskj 1a485c6b0c6b4666055b8d882a2c54f172a5e21a, every 2016th block up to 143,136),
 *       copied unchanged into {@code testnet4.checkpoints.txt};
 *   <li>regtest: genesis only (a regtest chain is whatever its node mined).
 * </ul>
 *
 * {@code HeaderCheckpointsTest} checks each header's proof of work, the chain work between
 * consecutive entries, and the headers' links against hashes Electrum publishes independently.
 *
 * <p>Thread-safe; the lists are immutable and parsed once per network.
 */
public final class HeaderCheckpoints {
    private static final Map<Chain, List<HeaderCheckpoint>> CACHE = new EnumMap<>(Chain.class);
    private static final Map<Chain, Map<Integer, HeaderCheckpoint>> BY_HEIGHT = new EnumMap<>(Chain.class);

    private HeaderCheckpoints() {}

    /** The shipped checkpoints of {@code chain}, by ascending height, genesis first. */
    public static synchronized List<HeaderCheckpoint> of(Chain chain) {
        return CACHE.computeIfAbsent(chain, HeaderCheckpoints::load);
    }

    /**
     * Why a source's block {@code hash} at {@code height} cannot be on {@code chain}'s best chain:
     * a checkpoint is shipped for that height with another hash. Empty when it agrees or no
     * checkpoint is shipped there.
     */
    public static Optional<String> conflict(Chain chain, int height, Sha256Hash hash) {
        HeaderCheckpoint c = byHeight(chain).get(height);
        if (c == null || c.hash().equals(hash)) {
            return Optional.empty();
        }
        return Optional.of("block " + hash + " at height " + height + " is not the block " + c.hash()
                + " of the checkpoint shipped for " + chain.cliName());
    }

    private static synchronized Map<Integer, HeaderCheckpoint> byHeight(Chain chain) {
        return BY_HEIGHT.computeIfAbsent(chain, c -> {
            Map<Integer, HeaderCheckpoint> m = new HashMap<>();
            for (HeaderCheckpoint cp : of(c)) {
                m.put(cp.height(), cp);
            }
            return Map.copyOf(m);
        });
    }

    /** The highest shipped checkpoint at or below {@code height} (genesis at worst). */
    public static HeaderCheckpoint atOrBelow(Chain chain, int height) {
        HeaderCheckpoint best = null;
        for (HeaderCheckpoint c : of(chain)) {
            if (c.height() <= height) {
                best = c;
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("no checkpoint at or below height " + height);
        }
        return best;
    }

    private static List<HeaderCheckpoint> load(Chain chain) {
        List<HeaderCheckpoint> out = new ArrayList<>();
        out.add(chain.genesisCheckpoint());
        switch (chain) {
            case MAINNET -> out.addAll(read(MainNetParams.get(), null));
            case TESTNET3 -> out.addAll(read(TestNet3Params.get(), null));
            case SIGNET -> out.addAll(read(SigNetParams.get(), null));
            // The header format is the same on every network; bitcoinj's params only parse it here.
            case TESTNET4 -> out.addAll(read(TestNet3Params.get(), "testnet4.checkpoints.txt"));
            case REGTEST -> {}
        }
        out.sort(Comparator.comparingInt(HeaderCheckpoint::height));
        return List.copyOf(out);
    }

    /** The entries of a bitcoinj checkpoint file: bitcoinj's own for {@code params}, or one of ours. */
    private static List<HeaderCheckpoint> read(NetworkParameters params, String ourResource) {
        String name = ourResource != null ? ourResource : params.getId() + ".checkpoints.txt";
        try (InputStream in = ourResource != null
                ? HeaderCheckpoints.class.getResourceAsStream(ourResource)
                : CheckpointManager.openStream(params)) {
            if (in == null) {
                throw new IllegalStateException("checkpoint file " + name + " is not on the class path");
            }
            Reader reader = new Reader(params, in);
            List<HeaderCheckpoint> out = new ArrayList<>();
            for (StoredBlock b : reader.entries()) {
                out.add(new HeaderCheckpoint(b.getHeight(), headerBytes(b.getHeader()), b.getChainWork()));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoint file " + name, e);
        }
    }

    private static byte[] headerBytes(Block header) {
        byte[] all = header.serialize();
        byte[] out = new byte[HeaderCheckpoint.HEADER_BYTES];
        System.arraycopy(all, 0, out, 0, out.length);
        return out;
    }

    /** bitcoinj's reader, for its entries (it keeps them in a protected map keyed by block time). */
    private static final class Reader extends CheckpointManager {
        Reader(NetworkParameters params, InputStream in) throws IOException {
            super(params, in);
        }

        List<StoredBlock> entries() {
            return new ArrayList<>(checkpoints.values());
        }
    }
}
