package org.blockfilter.filters.p2p;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.WireFormatException;

/**
 * The P2P message frame: 4-byte network magic, 12-byte NUL-padded command, u32 LE payload length,
 * the first 4 bytes of the payload's double SHA-256, then the payload. Stateless.
 */
public final class MessageFrame {
    /** Bytes before the payload. */
    public static final int HEADER_LENGTH = 24;

    private MessageFrame() {}

    /** The 4 magic bytes as they go on the wire, from bitcoinj's {@code getPacketMagic()} value. */
    public static byte[] magicBytes(long packetMagic) {
        return new byte[] {
            (byte) (packetMagic >>> 24), (byte) (packetMagic >>> 16), (byte) (packetMagic >>> 8), (byte) packetMagic
        };
    }

    /** The wire frame of a payload (an empty command is allowed so tests can build bad frames). */
    public static byte[] encode(byte[] magic, String command, byte[] payload) {
        byte[] cmd = command.getBytes(StandardCharsets.US_ASCII);
        if (cmd.length > 12) {
            throw new IllegalArgumentException("command longer than 12 bytes: " + command);
        }
        byte[] frame = new byte[HEADER_LENGTH + payload.length];
        System.arraycopy(magic, 0, frame, 0, 4);
        System.arraycopy(cmd, 0, frame, 4, cmd.length);
        int n = payload.length;
        frame[16] = (byte) n;
        frame[17] = (byte) (n >>> 8);
        frame[18] = (byte) (n >>> 16);
        frame[19] = (byte) (n >>> 24);
        System.arraycopy(Sha256Hash.hashTwice(payload), 0, frame, 20, 4);
        System.arraycopy(payload, 0, frame, HEADER_LENGTH, n);
        return frame;
    }

    /** A checked frame header: the command, the payload length and the checksum to compare. */
    public record Header(String command, int length, byte[] checksum) {}

    /**
     * Checks a 24-byte frame header before its payload is read: the network magic, a printable
     * NUL-padded command, and a payload length within {@link MessageCodec#maxPayload} for that command.
     *
     * @throws WireFormatException naming {@code magic}, {@code command} or {@code length}
     */
    public static Header parseHeader(byte[] magic, byte[] header) {
        if (!Arrays.equals(magic, 0, 4, header, 0, 4)) {
            throw new WireFormatException("magic", null, 0, "wrong network magic " + hex(Arrays.copyOf(header, 4)));
        }
        String command = parseCommand(header, 4);
        long length = (header[16] & 0xffL)
                | (header[17] & 0xffL) << 8
                | (header[18] & 0xffL) << 16
                | (header[19] & 0xffL) << 24;
        int cap = MessageCodec.maxPayload(command);
        if (length > cap) {
            throw new WireFormatException(
                    "length", null, 16, command + " payload of " + length + " bytes exceeds " + cap);
        }
        return new Header(command, (int) length, Arrays.copyOfRange(header, 20, 24));
    }

    /**
     * One frame read off a stream: its checked {@link Header}, the 24 header bytes as received and
     * the payload, whose checksum is not yet compared ({@link #decode} does). Copies its bytes in and
     * hands out copies. Immutable.
     */
    public static final class Frame {
        private final Header header;
        private final byte[] headerBytes;
        private final byte[] payload;

        private Frame(Header header, byte[] headerBytes, byte[] payload) {
            this.header = header;
            this.headerBytes = headerBytes.clone();
            this.payload = payload.clone();
        }

        /** The frame's header, already checked (magic, command, length within limits). */
        public Header header() {
            return header;
        }

        /** The header's command name, e.g. {@code "cfilter"}. */
        public String command() {
            return header.command();
        }

        /** A copy of the payload bytes, exactly the header's length of them. */
        public byte[] payload() {
            return payload.clone();
        }

        /** The frame as it came off the wire, header and payload. */
        public byte[] bytes() {
            byte[] b = Arrays.copyOf(headerBytes, HEADER_LENGTH + payload.length);
            System.arraycopy(payload, 0, b, HEADER_LENGTH, payload.length);
            return b;
        }

        /** {@link MessageFrame#decodeChecked}: the checksum compared, then the payload decoded. */
        public Message decode() {
            return decodeChecked(header, payload);
        }
    }

    /**
     * Reads one frame: the 24-byte header, checked by {@link #parseHeader} before any payload byte
     * is read (so an oversized length allocates nothing), then exactly its payload. Blocks until the
     * frame is complete or the stream ends.
     *
     * @throws EOFException        if the stream ends before the frame does (at a frame boundary or
     *                             inside it; the message says where)
     * @throws WireFormatException from {@link #parseHeader}
     */
    public static Frame read(InputStream in, byte[] magic) throws IOException {
        byte[] header = in.readNBytes(HEADER_LENGTH);
        if (header.length == 0) {
            throw new EOFException("stream ended at a frame boundary");
        }
        if (header.length < HEADER_LENGTH) {
            throw new EOFException(
                    "stream ended after " + header.length + " of " + HEADER_LENGTH + " frame header bytes");
        }
        Header h = parseHeader(magic, header);
        byte[] payload = in.readNBytes(h.length());
        if (payload.length < h.length()) {
            throw new EOFException(
                    "stream ended after " + payload.length + " of " + h.length() + " payload bytes of " + h.command());
        }
        return new Frame(h, header, payload);
    }

    /**
     * The printable, NUL-padded 12-byte command at {@code start} (a v1 header's, or a BIP 324
     * message type's long form).
     *
     * @throws WireFormatException naming {@code command} and the absolute offset
     */
    public static String parseCommand(byte[] b, int start) {
        int end = start;
        while (end < start + 12 && b[end] != 0) {
            byte c = b[end];
            if (c < 0x21 || c > 0x7e) {
                throw new WireFormatException("command", null, end, "non-printable byte " + (c & 0xff));
            }
            end++;
        }
        if (end == start) {
            throw new WireFormatException("command", null, start, "empty command");
        }
        for (int i = end; i < start + 12; i++) {
            if (b[i] != 0) {
                throw new WireFormatException("command", null, i, "bytes after the NUL padding");
            }
        }
        return new String(b, start, end - start, StandardCharsets.US_ASCII);
    }

    /**
     * Decodes a payload whose header was checked by {@link #parseHeader}, after comparing its checksum.
     *
     * @throws WireFormatException for a checksum mismatch or a malformed payload
     */
    public static Message decodeChecked(Header f, byte[] payload) {
        byte[] sum = Arrays.copyOf(Sha256Hash.hashTwice(payload), 4);
        if (!Arrays.equals(sum, f.checksum())) {
            throw new WireFormatException(
                    "checksum",
                    null,
                    20,
                    f.command() + " checksum " + hex(f.checksum()) + " does not match payload " + hex(sum));
        }
        return MessageCodec.decode(f.command(), payload);
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
