package org.blockfilter.regtest.mainnet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Properties;
import org.blockfilter.regtest.mainnet.internal.ByteSink;

/**
 * A mainnet-profile chain whose block times end near now instead of at the fixed times of
 * {@link ChainGenerator} (regtest genesis plus 10 minutes per block, i.e. 2011): light clients
 * such as neutrino consider themselves synced only once their best header is less than 24 hours
 * old. The chain is the default one with only its headers rewritten: block {@code h} of a chain
 * whose tip is {@code t} is stamped {@code tipTime - 600 (t - h)}, its previous-block hash is the
 * rewritten parent's and its nonce is ground again; the genesis block and every transaction are
 * unchanged, so the filters are the same. The cache file is {@code <key>-recent.chain}; its
 * {@code .meta} records {@code tip_time}. Stateless.
 */
public final class RecentBlockTimes {
    /** A cached chain whose tip is younger than this is served as it is; an older one is re-stamped. */
    public static final Duration REUSE_WITHIN = Duration.ofHours(12);

    private static final int SPACING = 600;
    private static final int HEADER = 80;

    private RecentBlockTimes() {}

    /**
     * The cache file of {@code profile} in {@code dir} with block times ending at {@code now}: an
     * existing one is reused while its tip is younger than {@link #REUSE_WITHIN}, re-stamped to end
     * at {@code now} otherwise; a missing one is generated first.
     */
    public static Path ensure(MainnetProfile profile, Path dir, Instant now, PrintStream progress) throws IOException {
        Path file = dir.resolve(profile.key() + "-recent.chain");
        Path meta = ChainGenerator.metaFile(file);
        if (Files.exists(file) && Files.exists(meta)) {
            long tipTime = Long.parseLong(load(meta).getProperty("tip_time", "0"));
            if (now.getEpochSecond() - tipTime < REUSE_WITHIN.toSeconds()) {
                progress.println(
                        "mainnet-profile: reusing " + file + " (tip time " + Instant.ofEpochSecond(tipTime) + ")");
                return file;
            }
            progress.println("mainnet-profile: re-stamping " + file + " to end at " + now);
            restamp(file, now.getEpochSecond());
            return file;
        }
        Files.createDirectories(dir);
        Path tmp = file.resolveSibling(file.getFileName() + ".generating");
        ChainGenerator.generate(profile, tmp, progress);
        restamp(tmp, now.getEpochSecond());
        Files.move(ChainGenerator.metaFile(tmp), meta, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    /**
     * Rewrites the headers of the chain file in place so that its tip is stamped {@code tipTime}
     * (seconds since the epoch) and every earlier block 600 s before its child, and records
     * {@code tip_time} in its {@code .meta}. Blocks whose time would fall at or before the genesis
     * block's are refused: the chain would break the median-time-past rule.
     */
    public static void restamp(Path file, long tipTime) throws IOException {
        MessageDigest sha = ByteSink.sha256();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long pos = firstRecord(ch);
            long[] headerAt = headerOffsets(ch, pos);
            int tip = headerAt.length - 1;
            byte[] genesis = read(ch, headerAt[0], HEADER);
            long firstTime = tipTime - (long) SPACING * (tip - 1);
            if (tip >= 1 && firstTime <= u32(genesis, 68)) {
                throw new IllegalArgumentException("a tip time of " + tipTime + " puts block 1 at or before genesis");
            }
            byte[] prev = ByteSink.sha256d(sha, genesis, 0, HEADER);
            for (int h = 1; h <= tip; h++) {
                byte[] header = read(ch, headerAt[h], HEADER);
                System.arraycopy(prev, 0, header, 4, 32);
                putU32(header, 68, tipTime - (long) SPACING * (tip - h));
                prev = grind(sha, header);
                ch.write(ByteBuffer.wrap(header), headerAt[h]);
            }
            ch.force(true);
        }
        Path meta = ChainGenerator.metaFile(file);
        Properties p = Files.exists(meta) ? load(meta) : new Properties();
        p.setProperty("tip_time", Long.toString(tipTime));
        try (OutputStream os = Files.newOutputStream(meta)) {
            p.store(os, "mainnet profile with block times ending at " + Instant.ofEpochSecond(tipTime));
        }
    }

    /** Sets the nonce so that the header's hash meets nBits 0x207fffff; the hash. */
    private static byte[] grind(MessageDigest sha, byte[] header) {
        for (long nonce = 0; ; nonce++) {
            putU32(header, 76, nonce);
            byte[] hash = ByteSink.sha256d(sha, header, 0, HEADER);
            if ((hash[31] & 0xff) < 0x7f) {
                return hash;
            }
        }
    }

    private static long firstRecord(FileChannel ch) throws IOException {
        byte[] start = read(ch, 0, 10);
        if (!Arrays.equals(Arrays.copyOf(start, 4), ChainGenerator.MAGIC)) {
            throw new IOException("not a mainnet-profile chain file (bad magic)");
        }
        int version = ByteBuffer.wrap(start, 4, 4).getInt();
        if (version != ChainGenerator.FORMAT_VERSION) {
            throw new IOException(
                    "chain file format version " + version + ", expected " + ChainGenerator.FORMAT_VERSION);
        }
        int keyLength = ((start[8] & 0xff) << 8) | (start[9] & 0xff);
        return 10L + keyLength;
    }

    /** The file offset of each block's header, by height (records: int length, block, int length, prevouts). */
    private static long[] headerOffsets(FileChannel ch, long pos) throws IOException {
        long size = ch.size();
        long[] out = new long[1024];
        int n = 0;
        while (pos < size) {
            int blockLen = ByteBuffer.wrap(read(ch, pos, 4)).getInt();
            int prevLen = ByteBuffer.wrap(read(ch, pos + 4 + blockLen, 4)).getInt();
            if (n == out.length) {
                out = Arrays.copyOf(out, n * 2);
            }
            out[n++] = pos + 4;
            pos += 4L + blockLen + 4 + prevLen;
        }
        return Arrays.copyOf(out, n);
    }

    private static byte[] read(FileChannel ch, long pos, int len) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(len);
        while (b.hasRemaining()) {
            if (ch.read(b, pos + b.position()) < 0) {
                throw new IOException("chain file ends early at " + (pos + b.position()));
            }
        }
        return b.array();
    }

    private static long u32(byte[] b, int off) {
        return (b[off] & 0xffL) | (b[off + 1] & 0xffL) << 8 | (b[off + 2] & 0xffL) << 16 | (b[off + 3] & 0xffL) << 24;
    }

    private static void putU32(byte[] b, int off, long v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    private static Properties load(Path meta) throws IOException {
        Properties p = new Properties();
        try (InputStream is = Files.newInputStream(meta)) {
            p.load(is);
        }
        return p;
    }
}
