package org.blockfilter.wallet.sync;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.VerificationException;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.DifficultyRules;
import org.blockfilter.filters.chain.HeaderCheckpoints;

/**
 * The best block-header chain the wallet has verified, from genesis: every header links to the
 * one before, meets the target its bits claim, and claims the target the network's difficulty
 * rules require ({@link DifficultyRules}: retargets, testnet's minimum-difficulty exception, BIP
 * 94; regtest never retargets), and is the shipped checkpoint where one is shipped for its height
 * ({@link HeaderCheckpoints}).
 *
 * <p>Mutable; not thread-safe (the sync engine owns it). No method returns null.
 */
public final class VerifiedHeaderChain {
    private static final Context CONTEXT = new Context();
    private final NetworkParameters params;
    private final List<byte[]> headers = new ArrayList<>();
    private final List<Sha256Hash> hashes = new ArrayList<>();
    private final List<Block> parsed = new ArrayList<>();

    public VerifiedHeaderChain(Network network) {
        this.params = NetworkParameters.of(network);
        Block genesis = params.getGenesisBlock();
        byte[] raw = new byte[Block.HEADER_SIZE];
        System.arraycopy(genesis.serialize(), 0, raw, 0, Block.HEADER_SIZE);
        append(raw, genesis.cloneAsHeader());
    }

    /** A chain from the wallet file's headers (trusted: they were verified when first stored, and are re-linked here). */
    public static VerifiedHeaderChain restore(Network network, byte[] concatenatedHeaders) {
        VerifiedHeaderChain c = new VerifiedHeaderChain(network);
        if (concatenatedHeaders.length % Block.HEADER_SIZE != 0) {
            throw new IllegalArgumentException(
                    "stored header chain length " + concatenatedHeaders.length + " is not a multiple of 80");
        }
        int n = concatenatedHeaders.length / Block.HEADER_SIZE;
        if (n == 0
                || !c.hashes.get(0).equals(parse(slice(concatenatedHeaders, 0)).getHash())) {
            throw new IllegalArgumentException("stored header chain does not start at this network's genesis");
        }
        List<byte[]> rest = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            rest.add(slice(concatenatedHeaders, i));
        }
        c.connect(1, rest);
        return c;
    }

    /**
     * The lowest height this chain holds: 0 for a chain from genesis. Nothing below it is known, and
     * a source's chain that does not contain the block at this height is not the same chain.
     */
    public int baseHeight() {
        return 0;
    }

    public int tipHeight() {
        return hashes.size() - 1;
    }

    public Sha256Hash tipHash() {
        return hashes.get(hashes.size() - 1);
    }

    public Sha256Hash hash(int height) {
        return hashes.get(height);
    }

    public Block header(int height) {
        return parsed.get(height);
    }

    /** The lowest height whose block time is at or after {@code epochSeconds} minus two hours (timestamps may lag). */
    public int heightAtTime(long epochSeconds) {
        for (int h = 0; h <= tipHeight(); h++) {
            if (parsed.get(h).time().getEpochSecond() >= epochSeconds - 7200) {
                return h;
            }
        }
        return tipHeight() + 1;
    }

    /** All headers concatenated, for the wallet file. */
    public byte[] serialize() {
        byte[] out = new byte[headers.size() * Block.HEADER_SIZE];
        for (int i = 0; i < headers.size(); i++) {
            System.arraycopy(headers.get(i), 0, out, i * Block.HEADER_SIZE, Block.HEADER_SIZE);
        }
        return out;
    }

    /**
     * Checks that {@code raw} headers form a valid branch starting at {@code startHeight} on top of
     * this chain's block {@code startHeight - 1}. Returns the parsed branch;
     * throws {@link InvalidHeaderException} naming the height and the fault.
     */
    public List<Block> validateBranch(int startHeight, List<byte[]> raw) {
        if (startHeight < 1 || startHeight > tipHeight() + 1) {
            throw new IllegalArgumentException("branch start " + startHeight + " outside 1.." + (tipHeight() + 1));
        }
        List<Block> out = new ArrayList<>(raw.size());
        Block prev = parsed.get(startHeight - 1);
        Sha256Hash prevHash = hashes.get(startHeight - 1);
        for (int i = 0; i < raw.size(); i++) {
            int height = startHeight + i;
            byte[] bytes = raw.get(i);
            if (bytes.length != Block.HEADER_SIZE) {
                throw new InvalidHeaderException(height, "header is " + bytes.length + " bytes, not 80");
            }
            Block b;
            try {
                b = parse(bytes);
            } catch (ProtocolException | IllegalArgumentException e) {
                throw new InvalidHeaderException(height, "header does not parse: " + e.getMessage());
            }
            if (!b.getPrevBlockHash().equals(prevHash)) {
                throw new InvalidHeaderException(
                        height, "header does not link: prev " + b.getPrevBlockHash() + ", expected " + prevHash);
            }
            checkTarget(height, b, startHeight, out);
            HeaderCheckpoints.conflict(Chain.ofBitcoinj((BitcoinNetwork) params.network()), height, b.getHash())
                    .ifPresent(fault -> {
                        throw new InvalidHeaderException(height, fault);
                    });
            // bitcoinj reads its proof-of-work switch from a thread-local Context; set ours (strict PoW).
            Context.propagate(CONTEXT);
            try {
                Block.verifyHeader(b);
            } catch (VerificationException e) {
                throw new InvalidHeaderException(height, "header fails proof of work or time check: " + e.getMessage());
            }
            out.add(b);
            prev = b;
            prevHash = b.getHash();
        }
        return out;
    }

    /**
     * The bits {@code b} claims are the ones the network's difficulty rules require at
     * {@code height}, reading its ancestors from the branch so far ({@code branch}, from
     * {@code startHeight}) and below it from this chain (down to {@link #baseHeight()}).
     */
    private void checkTarget(int height, Block b, int startHeight, List<Block> branch) {
        DifficultyRules.Ancestors ancestors = new DifficultyRules.Ancestors() {
            @Override
            public int lowestHeight() {
                return baseHeight();
            }

            @Override
            public long time(int h) {
                return ancestor(h).time().getEpochSecond();
            }

            @Override
            public long bits(int h) {
                return ancestor(h).getDifficultyTarget();
            }

            private Block ancestor(int h) {
                return h >= startHeight ? branch.get(h - startHeight) : header(h);
            }
        };
        DifficultyRules.of(Chain.ofBitcoinj((BitcoinNetwork) params.network()))
                .violation(height, b.time().getEpochSecond(), b.getDifficultyTarget(), ancestors)
                .ifPresent(fault -> {
                    throw new InvalidHeaderException(height, fault);
                });
    }

    /** Work of this chain's blocks above {@code height}. */
    public BigInteger workAbove(int height) {
        BigInteger w = BigInteger.ZERO;
        for (int h = height + 1; h <= tipHeight(); h++) {
            w = w.add(parsed.get(h).getWork());
        }
        return w;
    }

    public static BigInteger work(List<Block> branch) {
        BigInteger w = BigInteger.ZERO;
        for (Block b : branch) {
            w = w.add(b.getWork());
        }
        return w;
    }

    /** Validates and appends headers that extend the tip; {@code startHeight} must be tip + 1. */
    public void connect(int startHeight, List<byte[]> raw) {
        if (startHeight != tipHeight() + 1) {
            throw new IllegalArgumentException("connect at " + startHeight + " but tip is " + tipHeight());
        }
        List<Block> blocks = validateBranch(startHeight, raw);
        for (int i = 0; i < blocks.size(); i++) {
            append(raw.get(i).clone(), blocks.get(i));
        }
    }

    /** Drops every header above {@code height}. */
    public void truncate(int height) {
        if (height < 0) {
            throw new IllegalArgumentException("cannot drop genesis");
        }
        while (tipHeight() > height) {
            int last = hashes.size() - 1;
            headers.remove(last);
            hashes.remove(last);
            parsed.remove(last);
        }
    }

    private void append(byte[] raw, Block header) {
        headers.add(raw);
        hashes.add(header.getHash());
        parsed.add(header);
    }

    static Block parse(byte[] raw) {
        return Block.read(ByteBuffer.wrap(raw));
    }

    private static byte[] slice(byte[] all, int i) {
        byte[] out = new byte[Block.HEADER_SIZE];
        System.arraycopy(all, i * Block.HEADER_SIZE, out, 0, Block.HEADER_SIZE);
        return out;
    }
}
