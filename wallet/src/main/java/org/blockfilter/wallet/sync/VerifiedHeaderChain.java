package org.blockfilter.wallet.sync;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.VerificationException;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.DifficultyRules;
import org.blockfilter.filters.chain.HeaderCheckpoint;
import org.blockfilter.filters.chain.HeaderCheckpoints;
import org.blockfilter.wallet.store.RecordFile;
import org.blockfilter.wallet.store.WalletFileException;

/**
 * The best block-header chain the wallet has verified, from its base (genesis, or a {@link
 * HeaderCheckpoint}) to its tip: every header above the base links to the one before, meets the
 * target its bits claim, claims the bits the network's difficulty rules require ({@link
 * DifficultyRules}: retargets, testnet's minimum-difficulty exception, BIP 94; regtest never
 * retargets; exact from a base at a retarget boundary) and, at a height a checkpoint is shipped
 * for, is that checkpoint's block ({@link HeaderCheckpoints}). Nothing below the base is held or
 * needed: work is compared from the base's chain work.
 *
 * <p>Headers live in a {@link RecordFile} (record {@code i} is the header at {@code base + i},
 * record 0 the base itself) once {@link #flush}ed, and in memory until then; a chain without a
 * file (tests, a wallet not yet saved) keeps all of them in memory. Reads from the file are
 * checked by the file's per-record CRC, and the tip against the hash the wallet document commits.
 *
 * <p>Mutable; not thread-safe (the sync engine owns it). No method returns null.
 */
public final class VerifiedHeaderChain {
    private static final Context CONTEXT = new Context();
    /** Headers appended in memory before they are written out, once the file is past what the document commits. */
    private static final int FLUSH_EVERY = 20_000;

    private final Chain chain;
    private final HeaderCheckpoint base;
    private final Block baseHeader;
    private RecordFile file;
    /** Records of this chain in the file: heights base .. base + persisted - 1. */
    private int persisted;
    /** The highest height the wallet document on disk commits (its tip record), or -1. */
    private int committed = -1;

    private final List<byte[]> tail = new ArrayList<>();
    private final List<Sha256Hash> tailHashes = new ArrayList<>();
    private Block tipHeader;
    private Sha256Hash tipHash;
    private BigInteger tipWork;

    /** A chain of the network's genesis block alone, in memory. */
    public VerifiedHeaderChain(Chain chain) {
        this(chain, chain.genesisCheckpoint());
    }

    private VerifiedHeaderChain(Chain chain, HeaderCheckpoint base) {
        this.chain = chain;
        this.base = base;
        this.baseHeader = parse(base.header());
        this.tipHeader = baseHeader;
        this.tipHash = baseHeader.getHash();
        this.tipWork = base.chainWork();
        this.persisted = 0;
        tail.add(base.header());
        tailHashes.add(tipHash);
    }

    /** A chain of {@code base} alone, in memory: it holds nothing below it and continues from its header. */
    public static VerifiedHeaderChain fromCheckpoint(Chain chain, HeaderCheckpoint base) {
        return new VerifiedHeaderChain(chain, base);
    }

    /** A chain from genesis of the concatenated {@code headers} (the one-document wallet format), validated. */
    public static VerifiedHeaderChain restore(Chain chain, byte[] concatenatedHeaders) {
        VerifiedHeaderChain c = new VerifiedHeaderChain(chain);
        if (concatenatedHeaders.length % Block.HEADER_SIZE != 0) {
            throw new IllegalArgumentException(
                    "stored header chain length " + concatenatedHeaders.length + " is not a multiple of 80");
        }
        int n = concatenatedHeaders.length / Block.HEADER_SIZE;
        if (n == 0 || !c.tipHash.equals(parse(slice(concatenatedHeaders, 0)).getHash())) {
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
     * The chain the wallet document commits: base {@code base}, tip {@code tipHeight} whose hash is
     * {@code tipHash} and chain work {@code tipWork}, headers in {@code file}. Records past the tip
     * (a crash after the headers were written and before the document) are ignored. A file that
     * ends below the tip (records lost) gives the chain as far as the file goes, its top header
     * checked for linkage and proof of work; the caller rolls back what was above it. A record
     * whose hash differs from what the document commits is an error naming the file.
     */
    public static VerifiedHeaderChain open(
            Chain chain,
            HeaderCheckpoint base,
            RecordFile file,
            int tipHeight,
            Sha256Hash tipHash,
            BigInteger tipWork) {
        VerifiedHeaderChain c = new VerifiedHeaderChain(chain, base);
        c.file = file;
        long records = file.count();
        if (records == 0) {
            if (tipHeight != base.height()) {
                throw new WalletFileException(
                        "wallet header file " + file.path().toAbsolutePath() + " is missing or empty, but the wallet"
                                + " document says its chain reaches height " + tipHeight,
                        null);
            }
            return c; // the base is still only in memory; the next flush writes it
        }
        if (!java.util.Arrays.equals(file.read(0), base.header())) {
            throw new WalletFileException(
                    "wallet header file " + file.path().toAbsolutePath() + " does not start at the wallet's base block "
                            + base.hash() + " (height " + base.height() + ")",
                    null);
        }
        c.tail.clear();
        c.tailHashes.clear();
        int top = (int) Math.min(tipHeight, base.height() + records - 1);
        c.persisted = top - base.height() + 1;
        c.tipHeader = c.readHeader(top);
        c.tipHash = c.tipHeader.getHash();
        if (top == tipHeight) {
            if (!c.tipHash.equals(tipHash)) {
                throw new WalletFileException(
                        "wallet header file " + file.path().toAbsolutePath() + " holds block " + c.tipHash
                                + " at height " + tipHeight + ", but the wallet document commits " + tipHash + " there",
                        null);
            }
            c.tipWork = tipWork;
            c.committed = tipHeight;
        } else {
            if (top > base.height()) {
                c.checkHeader(top, c.tipHeader, c.header(top - 1), top, List.of());
            }
            c.tipWork = base.chainWork().add(c.workAbove(base.height()));
            c.committed = top;
        }
        return c;
    }

    /** Keeps this chain in {@code file} from now on (a new wallet's first save); the file must be empty. */
    public void attach(RecordFile file) {
        if (this.file != null || persisted != 0) {
            throw new IllegalStateException("the header chain already has a file");
        }
        this.file = file;
    }

    /** The checkpoint this chain starts from (genesis at height 0 for a chain from genesis). */
    public HeaderCheckpoint checkpoint() {
        return base;
    }

    /**
     * The lowest height this chain holds: 0 for a chain from genesis, else its checkpoint's. Nothing
     * below it is known, and a source's chain that does not contain the block at this height is not
     * the same chain.
     */
    public int baseHeight() {
        return base.height();
    }

    /** The height of the chain's last verified header. */
    public int tipHeight() {
        return base.height() + persisted + tail.size() - 1;
    }

    /** The hash of the chain's last verified header. */
    public Sha256Hash tipHash() {
        return tipHash;
    }

    /** Total work from genesis to the tip: the base's chain work plus the work of every header above it. */
    public BigInteger chainWork() {
        return tipWork;
    }

    /** The block hash at {@code height}, between the base and the tip (else {@link IllegalArgumentException}). */
    public Sha256Hash hash(int height) {
        check(height);
        if (height == tipHeight()) {
            return tipHash;
        }
        int i = height - base.height() - persisted;
        return i >= 0 ? tailHashes.get(i) : readHeader(height).getHash();
    }

    /** The header at {@code height} as a bitcoinj block without transactions, between the base and the tip. */
    public Block header(int height) {
        check(height);
        if (height == tipHeight()) {
            return tipHeader;
        }
        int i = height - base.height() - persisted;
        return i >= 0 ? parse(tail.get(i)) : readHeader(height);
    }

    private void check(int height) {
        if (height < base.height() || height > tipHeight()) {
            throw new IllegalArgumentException(
                    "no header at height " + height + " (the chain holds " + base.height() + ".." + tipHeight() + ")");
        }
    }

    private Block readHeader(int height) {
        byte[] raw = file.read(height - base.height());
        try {
            return parse(raw);
        } catch (ProtocolException | IllegalArgumentException e) {
            throw new WalletFileException(
                    "wallet header file " + file.path().toAbsolutePath() + " is damaged at height " + height + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * The lowest height whose block time is at or after {@code epochSeconds} minus two hours
     * (timestamps may lag), found by binary search over the held headers; {@link #baseHeight()}
     * when the base is already that late.
     */
    public int heightAtTime(long epochSeconds) {
        long target = epochSeconds - 7200;
        if (tipHeader.time().getEpochSecond() < target) {
            return tipHeight() + 1;
        }
        int lo = base.height();
        int hi = tipHeight();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (header(mid).time().getEpochSecond() >= target) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * Checks that {@code raw} headers form a valid branch starting at {@code startHeight} on top of
     * this chain's block {@code startHeight - 1}. Returns the parsed branch;
     * throws {@link InvalidHeaderException} naming the height and the fault.
     */
    public List<Block> validateBranch(int startHeight, List<byte[]> raw) {
        if (startHeight < base.height() + 1 || startHeight > tipHeight() + 1) {
            throw new IllegalArgumentException(
                    "branch start " + startHeight + " outside " + (base.height() + 1) + ".." + (tipHeight() + 1));
        }
        List<Block> out = new ArrayList<>(raw.size());
        Block prev = header(startHeight - 1);
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
            checkHeader(height, b, prev, startHeight, out);
            out.add(b);
            prev = b;
        }
        return out;
    }

    /** {@code b} at {@code height} on {@code prev}, its ancestors from {@code startHeight} up in {@code branch}. */
    private void checkHeader(int height, Block b, Block prev, int startHeight, List<Block> branch) {
        Sha256Hash prevHash = prev.getHash();
        if (!b.getPrevBlockHash().equals(prevHash)) {
            throw new InvalidHeaderException(
                    height, "header does not link: prev " + b.getPrevBlockHash() + ", expected " + prevHash);
        }
        checkTarget(height, b, startHeight, branch);
        HeaderCheckpoints.conflict(chain, height, b.getHash()).ifPresent(fault -> {
            throw new InvalidHeaderException(height, fault);
        });
        // bitcoinj reads its proof-of-work switch from a thread-local Context; set ours (strict PoW).
        Context.propagate(CONTEXT);
        try {
            Block.verifyHeader(b);
        } catch (VerificationException e) {
            throw new InvalidHeaderException(height, "header fails proof of work or time check: " + e.getMessage());
        }
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
        chain.difficultyRules()
                .violation(height, b.time().getEpochSecond(), b.getDifficultyTarget(), ancestors)
                .ifPresent(fault -> {
                    throw new InvalidHeaderException(height, fault);
                });
    }

    /** Work of this chain's blocks above {@code height}, which must be at or above the base (nothing below it is held). */
    public BigInteger workAbove(int height) {
        check(height);
        BigInteger w = BigInteger.ZERO;
        for (int h = height + 1; h <= tipHeight(); h++) {
            w = w.add(header(h).getWork());
        }
        return w;
    }

    /** The total proof of work of a branch of headers. */
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
            Block b = blocks.get(i);
            tail.add(raw.get(i).clone());
            tailHashes.add(b.getHash());
            tipHeader = b;
            tipHash = b.getHash();
            tipWork = tipWork.add(b.getWork());
        }
        // A long first sync need not hold every header in memory: records past what the document
        // commits may be written early, since a crash leaves them past the committed tip, ignored.
        if (file != null && tail.size() >= FLUSH_EVERY && base.height() + persisted > committed) {
            flush();
        }
    }

    /** Drops every header above {@code height}, which must be at or above the base. */
    public void truncate(int height) {
        if (height < base.height()) {
            throw new IllegalArgumentException(
                    "cannot drop the chain's base (height " + base.height() + "), asked to keep up to " + height);
        }
        if (height >= tipHeight()) {
            return;
        }
        BigInteger dropped = workAbove(height);
        int keepTail = height - base.height() - persisted + 1;
        if (keepTail >= 0) {
            tail.subList(keepTail, tail.size()).clear();
            tailHashes.subList(keepTail, tailHashes.size()).clear();
        } else {
            tail.clear();
            tailHashes.clear();
            persisted = height - base.height() + 1;
        }
        tipHeader = tail.isEmpty() ? readHeader(height) : parse(tail.get(tail.size() - 1));
        tipHash = tipHeader.getHash();
        tipWork = tipWork.subtract(dropped);
    }

    /**
     * The highest height whose record in the file is still this chain's: what a save may leave
     * committed while it rewrites the rest. Below {@link #committedHeight()} after a reorg.
     */
    public int persistedHeight() {
        return base.height() + persisted - 1;
    }

    /** The tip the wallet document on disk commits, as last told by {@link #committed(int)}. */
    public int committedHeight() {
        return committed;
    }

    /** Records that the wallet document on disk now commits {@code height}. */
    public void committed(int height) {
        this.committed = height;
    }

    /** Writes the headers held in memory to the file (fsynced) and returns the bytes written; 0 without a file. */
    public long flush() {
        if (file == null || tail.isEmpty()) {
            return 0;
        }
        if (persisted > 0
                && !parse(tail.get(0))
                        .getPrevBlockHash()
                        .equals(readHeader(base.height() + persisted - 1).getHash())) {
            throw new WalletFileException(
                    "another process rewrote the wallet's header file "
                            + file.path().toAbsolutePath() + " below this"
                            + " process's chain; nothing was saved, run the command again",
                    null);
        }
        long before = file.bytesWritten();
        file.write(persisted, tail);
        persisted += tail.size();
        tail.clear();
        tailHashes.clear();
        return file.bytesWritten() - before;
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
