package org.blockfilter.regtest.mainnet;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.mainnet.internal.ByteSink;

/**
 * A generated mainnet-profile chain read back from its cache file ({@link ChainGenerator} gives
 * the layout): block hashes by height, raw blocks and the prevouts each block spends. Only the
 * offsets are held in memory; blocks are read from the file on demand. Thread-safe (positional
 * reads); close it to release the file.
 */
public final class ProfileChain implements AutoCloseable {
    private final FileChannel channel;
    private final long[] offsets;
    private final int[] blockLengths;
    private final int[] prevoutLengths;
    private final Sha256Hash[] hashes;
    private final Map<Sha256Hash, Integer> heights;
    private final Properties meta;

    private ProfileChain(Path file) throws IOException {
        List<long[]> records = new ArrayList<>();
        List<Sha256Hash> hashList = new ArrayList<>();
        var sha = ByteSink.sha256();
        try (InputStream is = Files.newInputStream(file);
                DataInputStream in = new DataInputStream(new BufferedInputStream(is, 1 << 20))) {
            byte[] magic = in.readNBytes(4);
            if (!Arrays.equals(magic, ChainGenerator.MAGIC)) {
                throw new IOException(file + " is not a mainnet-profile chain file (bad magic)");
            }
            int version = in.readInt();
            if (version != ChainGenerator.FORMAT_VERSION) {
                throw new IOException(file + " has format version " + version + ", expected "
                        + ChainGenerator.FORMAT_VERSION + "; delete it to regenerate");
            }
            String key = in.readUTF();
            long pos = 4 + 4 + 2 + key.getBytes(StandardCharsets.UTF_8).length;
            byte[] header = new byte[80];
            while (true) {
                int blockLen;
                try {
                    blockLen = in.readInt();
                } catch (EOFException e) {
                    break;
                }
                in.readFully(header);
                in.skipNBytes(blockLen - 80);
                int prevLen = in.readInt();
                in.skipNBytes(prevLen);
                records.add(new long[] {pos + 4, blockLen, prevLen});
                hashList.add(Sha256Hash.wrapReversed(ByteSink.sha256d(sha, header, 0, 80)));
                pos += 4 + blockLen + 4 + prevLen;
            }
        }
        int n = records.size();
        offsets = new long[n];
        blockLengths = new int[n];
        prevoutLengths = new int[n];
        hashes = hashList.toArray(new Sha256Hash[0]);
        heights = new HashMap<>(n * 2);
        for (int h = 0; h < n; h++) {
            offsets[h] = records.get(h)[0];
            blockLengths[h] = (int) records.get(h)[1];
            prevoutLengths[h] = (int) records.get(h)[2];
            heights.put(hashes[h], h);
        }
        meta = new Properties();
        Path metaFile = ChainGenerator.metaFile(file);
        if (Files.exists(metaFile)) {
            try (InputStream is = Files.newInputStream(metaFile)) {
                meta.load(is);
            }
        }
        channel = FileChannel.open(file, StandardOpenOption.READ);
    }

    /** Opens a chain file written by {@link ChainGenerator}. */
    public static ProfileChain open(Path file) throws IOException {
        return new ProfileChain(file);
    }

    /** Height of the last block. */
    public int tipHeight() {
        return hashes.length - 1;
    }

    /** Height of the last ramp block (from the {@code .meta} file); -1 if unknown. */
    public int rampEndHeight() {
        return Integer.parseInt(meta.getProperty("ramp_end_height", "-1"));
    }

    /** The generator's per-phase totals ({@code ramp.inputs}, {@code steady.txs}, ...). */
    public Properties meta() {
        Properties copy = new Properties();
        copy.putAll(meta);
        return copy;
    }

    public Sha256Hash hashAt(int height) {
        return hashes[height];
    }

    /** The height of the block with {@code hash}, if it is in the chain. */
    public Optional<Integer> heightOf(Sha256Hash hash) {
        return Optional.ofNullable(heights.get(hash));
    }

    /** The block's wire serialization, with witnesses. */
    public byte[] rawBlock(int height) {
        return read(offsets[height], blockLengths[height]);
    }

    /** The outputs the block's non-coinbase inputs spend, in block order. */
    public List<Prevout> prevouts(int height) {
        ByteBuffer b = ByteBuffer.wrap(read(offsets[height] + blockLengths[height] + 4, prevoutLengths[height]))
                .order(ByteOrder.LITTLE_ENDIAN);
        List<Prevout> out = new ArrayList<>();
        while (b.hasRemaining()) {
            int h = b.getInt();
            long value = b.getLong();
            byte[] script = new byte[b.get() & 0xff];
            b.get(script);
            out.add(new Prevout(h, value, script));
        }
        return out;
    }

    private byte[] read(long pos, int len) {
        ByteBuffer buf = ByteBuffer.allocate(len);
        try {
            while (buf.hasRemaining()) {
                int n = channel.read(buf, pos + buf.position());
                if (n < 0) {
                    throw new EOFException("chain file ends early at " + (pos + buf.position()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buf.array();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
