package org.blockfilter.filters.wire;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bitcoinj.base.Sha256Hash;

/**
 * Reads Bitcoin wire encodings from a byte array, strictly: a field that runs past the end, a
 * non-canonical CompactSize, a count or length above the caller's cap, and trailing bytes are
 * {@link WireFormatException}s that name the field, the value and the offset where the field starts.
 * Never allocates more than the input can back, so a lying count cannot exhaust memory.
 *
 * <p>Mutable (it has a position) and not thread-safe: one reader per message. It reads the caller's
 * array without copying it; byte arrays it returns are copies. Field names must not be null.
 */
public final class WireReader {
    private final byte[] data;
    private final int end;
    private int pos;

    /** A reader over all of {@code data}. */
    public WireReader(byte[] data) {
        this(data, 0, data.length);
    }

    /** A reader over {@code data[from, to)}; offsets in errors are indexes into {@code data}. */
    public WireReader(byte[] data, int from, int to) {
        if (from < 0 || to > data.length || from > to) {
            throw new IndexOutOfBoundsException("range [" + from + ", " + to + ") of " + data.length + " bytes");
        }
        this.data = data;
        this.pos = from;
        this.end = to;
    }

    /** Offset of the next byte to read. */
    public int position() {
        return pos;
    }

    /** Bytes left to read. */
    public int remaining() {
        return end - pos;
    }

    /** An error about the field starting at the current position. */
    public WireFormatException error(String field, Object value, String reason) {
        return new WireFormatException(field, value, pos, reason);
    }

    private void need(String field, long n) {
        if (n > remaining()) {
            throw error(field, null, "needs " + n + " bytes, " + remaining() + " left");
        }
    }

    /**
     * Reads one byte as an unsigned value; throws {@link WireFormatException} naming {@code field} when no byte is
     * left.
     */
    public int u8(String field) {
        need(field, 1);
        return data[pos++] & 0xff;
    }

    /**
     * Reads a little-endian unsigned 16-bit integer; throws {@link WireFormatException} naming {@code field} when fewer
     * than 2 bytes are left.
     */
    public int u16le(String field) {
        need(field, 2);
        int v = (data[pos] & 0xff) | (data[pos + 1] & 0xff) << 8;
        pos += 2;
        return v;
    }

    /** Big-endian, as network addresses carry their port. */
    public int u16be(String field) {
        need(field, 2);
        int v = (data[pos] & 0xff) << 8 | (data[pos + 1] & 0xff);
        pos += 2;
        return v;
    }

    /**
     * Reads a little-endian unsigned 32-bit integer (0 .. 2^32-1, in a long); throws {@link WireFormatException} naming
     * {@code field} when fewer than 4 bytes are left.
     */
    public long u32le(String field) {
        need(field, 4);
        long v = le(4);
        pos += 4;
        return v;
    }

    /** A u32 reinterpreted as a signed int (as Bitcoin's {@code int32_t} fields are). */
    public int i32le(String field) {
        return (int) u32le(field);
    }

    /** The 64 bits as a long: unsigned values above {@code Long.MAX_VALUE} come back negative. */
    public long u64le(String field) {
        need(field, 8);
        long v = le(8);
        pos += 8;
        return v;
    }

    private long le(int width) {
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = v << 8 | (data[pos + i] & 0xffL);
        }
        return v;
    }

    /** A copy of the next {@code n} bytes. */
    public byte[] bytes(String field, int n) {
        need(field, n);
        byte[] out = Arrays.copyOfRange(data, pos, pos + n);
        pos += n;
        return out;
    }

    /** A 32-byte hash in wire (internal) byte order, returned in bitcoinj's display order. */
    public Sha256Hash hash(String field) {
        return Sha256Hash.wrapReversed(bytes(field, 32));
    }

    /**
     * A canonical CompactSize of at most {@code max} (unsigned; {@code -1} for no cap). On error the
     * position stays at the start of the field.
     */
    public long compactSize(String field, long max) {
        long v = CompactSize.read(data, pos, end, field, max);
        pos += CompactSize.size(v);
        return v;
    }

    /**
     * A CompactSize count of items of at least {@code itemSize} bytes each: at most {@code max}, and
     * no more than the remaining bytes can hold.
     */
    public int count(String field, int max, int itemSize) {
        int start = pos;
        int n = (int) compactSize(field, max);
        if ((long) n * itemSize > remaining()) {
            int left = remaining();
            pos = start;
            throw error(field, n, "count needs " + (long) n * itemSize + " bytes, " + left + " left");
        }
        return n;
    }

    /** A CompactSize length of at most {@code max} followed by that many bytes (a copy). */
    public byte[] varBytes(String field, int max) {
        int n = (int) compactSize(field + " length", max);
        if (n > remaining()) {
            throw error(field, null, "length " + n + " runs past the end (" + remaining() + " bytes left)");
        }
        return bytes(field, n);
    }

    /** A {@link #varBytes} string that must be valid UTF-8 (ASCII included). */
    public String varString(String field, int max) {
        int start = pos;
        byte[] b = varBytes(field, max);
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b))
                    .toString();
        } catch (CharacterCodingException e) {
            pos = start;
            throw error(field, null, "not valid UTF-8");
        }
    }

    /** Throws unless every byte was read; {@code what} names the message or record. */
    public void end(String what) {
        if (remaining() != 0) {
            throw error(what, null, remaining() + " trailing bytes");
        }
    }
}
