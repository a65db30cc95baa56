package org.blockfilter.server.p2p.internal;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.p2p.MessageFrame;
import org.blockfilter.filters.wire.WireFormatException;

/**
 * Reads Bitcoin P2P v1 frames (magic, 12-byte NUL-padded command, payload length, checksum,
 * payload) from a stream. The header is checked by the shared {@link MessageFrame} before any
 * payload byte is read: a wrong magic, a malformed command or a length above the command's cap
 * (at most 4,000,000 bytes, Core's MAX_PROTOCOL_MESSAGE_LENGTH) is a {@link Violation} with a ban
 * score, and nothing is allocated for the payload. The payload buffer then grows with the bytes
 * that actually arrive (64 KiB steps), so a peer that announces 4 MB and sends 10 bytes costs
 * 64 KiB, not 4 MB. A bad checksum leaves the stream in sync; the frame is returned marked as such.
 *
 * <p>Not thread-safe: one reader thread per connection.
 */
public final class FrameReader {
    public static final int HEADER_BYTES = MessageFrame.HEADER_LENGTH;
    static final int CHUNK = 64 << 10;

    private final InputStream in;
    private final byte[] magic;
    private final AtomicLong buffered;
    private final Runnable onBytes;

    /** A frame: its command, payload and whether the checksum matched. */
    public record Frame(String command, byte[] payload, boolean checksumOk) {}

    /**
     * @param buffered receives the bytes currently allocated for payloads (server-wide gauge)
     * @param onBytes  called whenever bytes arrive (the idle timer)
     */
    public FrameReader(InputStream in, long magic, AtomicLong buffered, Runnable onBytes) {
        this.in = in;
        this.magic = MessageFrame.magicBytes(magic);
        this.buffered = buffered;
        this.onBytes = onBytes;
    }

    /** The next frame; EOFException when the peer closed the connection between frames. */
    public Frame next() throws IOException {
        byte[] header = new byte[HEADER_BYTES];
        if (!readFully(header, 0, HEADER_BYTES, true)) {
            throw new EOFException("peer closed the connection");
        }
        MessageFrame.Header h;
        try {
            h = MessageFrame.parseHeader(magic, header);
        } catch (WireFormatException e) {
            String reason = switch (e.field()) {
                case "magic" -> "bad_magic";
                case "length" -> "oversized";
                default -> "bad_command";
            };
            throw Violation.ban(reason, e.getMessage());
        }
        byte[] payload = readPayload(h.length());
        byte[] sum = Arrays.copyOf(Sha256Hash.hashTwice(payload), 4);
        return new Frame(h.command(), payload, Arrays.equals(sum, h.checksum()));
    }

    private byte[] readPayload(int length) throws IOException {
        byte[] buf = new byte[Math.min(length, CHUNK)];
        buffered.addAndGet(buf.length);
        try {
            int off = 0;
            while (off < length) {
                if (off == buf.length) {
                    int grown = (int) Math.min(length, (long) buf.length * 2);
                    buffered.addAndGet(grown - buf.length);
                    buf = Arrays.copyOf(buf, grown);
                }
                int want = Math.min(buf.length - off, CHUNK);
                if (!readFully(buf, off, want, false)) {
                    throw new EOFException("peer closed the connection inside a payload");
                }
                off += want;
            }
            return buf;
        } finally {
            buffered.addAndGet(-buf.length);
        }
    }

    /** False if the stream ended before the first byte and {@code atBoundary}. */
    private boolean readFully(byte[] b, int off, int n, boolean atBoundary) throws IOException {
        int done = 0;
        while (done < n) {
            int r = in.read(b, off + done, n - done);
            if (r < 0) {
                if (done == 0 && atBoundary) {
                    return false;
                }
                throw new EOFException("peer closed the connection inside a message");
            }
            done += r;
            onBytes.run();
        }
        return true;
    }
}
