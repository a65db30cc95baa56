package org.blockfilter.filters.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HexFormat;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.params.RegTestParams;
import org.blockfilter.filters.wire.WireFormatException;
import org.junit.jupiter.api.Test;

class MessageFrameTest {
    private static final long MAGIC = RegTestParams.get().getPacketMagic();
    private static final byte[] MAGIC_BYTES = HexFormat.of().parseHex("fabfb5da");

    @Test
    void regtestMagicIsWrittenAsOnTheWire() {
        assertEquals(0xfabfb5daL, MAGIC & 0xffff_ffffL);
        byte[] frame = MessageFrame.encode(MAGIC_BYTES, "verack", new byte[0]);
        // verack: empty payload, checksum 5df6e0e2 (the well-known double SHA-256 of nothing).
        assertEquals(
                "fabfb5da76657261636b000000000000000000005df6e0e2",
                HexFormat.of().formatHex(frame));
    }

    @Test
    void frameRoundTrips() {
        Message m = new Message.GetCFCheckpt(0, Sha256Hash.of(new byte[] {9}));
        byte[] frame = MessageFrame.encode(MAGIC_BYTES, m.command(), MessageCodec.encode(m));
        MessageFrame.Header f = MessageFrame.parseHeader(MAGIC_BYTES, Arrays.copyOf(frame, 24));
        assertEquals("getcfcheckpt", f.command());
        assertEquals(m, MessageFrame.decodeChecked(f, Arrays.copyOfRange(frame, 24, frame.length)));
    }

    @Test
    void wrongMagicIsRejected() {
        byte[] frame = MessageFrame.encode(HexFormat.of().parseHex("f9beb4d9"), "verack", new byte[0]);
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> MessageFrame.parseHeader(MAGIC_BYTES, frame));
        assertEquals("magic", e.field());
    }

    @Test
    void payloadAboveTheCommandsCapIsRefusedBeforeItIsRead() {
        byte[] header = MessageFrame.encode(MAGIC_BYTES, "cfheaders", new byte[0]);
        header[16] = (byte) 0xff;
        header[17] = (byte) 0xff;
        header[18] = 0x01; // 131071 bytes > the cfheaders cap of 64,068
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> MessageFrame.parseHeader(MAGIC_BYTES, header));
        assertTrue(e.getMessage().contains("exceeds 64068"), e.getMessage());
    }

    @Test
    void payloadAboveTheProtocolMaximumIsRefused() {
        byte[] header = MessageFrame.encode(MAGIC_BYTES, "block", new byte[0]);
        header[19] = 0x7f;
        assertThrows(WireFormatException.class, () -> MessageFrame.parseHeader(MAGIC_BYTES, header));
    }

    @Test
    void badChecksumIsRejected() {
        byte[] frame = MessageFrame.encode(MAGIC_BYTES, "ping", new byte[8]);
        frame[24] = 1;
        MessageFrame.Header f = MessageFrame.parseHeader(MAGIC_BYTES, Arrays.copyOf(frame, 24));
        WireFormatException e = assertThrows(
                WireFormatException.class,
                () -> MessageFrame.decodeChecked(f, Arrays.copyOfRange(frame, 24, frame.length)));
        assertEquals("checksum", e.field());
    }

    @Test
    void commandWithBytesAfterItsPaddingIsRejected() {
        byte[] frame = MessageFrame.encode(MAGIC_BYTES, "ping", new byte[8]);
        frame[15] = 'x';
        assertThrows(WireFormatException.class, () -> MessageFrame.parseHeader(MAGIC_BYTES, Arrays.copyOf(frame, 24)));
    }

    @Test
    void emptyCommandIsRejected() {
        byte[] frame = MessageFrame.encode(MAGIC_BYTES, "", new byte[0]);
        assertThrows(WireFormatException.class, () -> MessageFrame.parseHeader(MAGIC_BYTES, frame));
    }

    @Test
    void readTakesOneFrameAtATimeAndStopsAtItsEnd() throws IOException {
        Message ping = new Message.Ping(7);
        byte[] first = MessageFrame.encode(MAGIC_BYTES, ping.command(), MessageCodec.encode(ping));
        byte[] second = MessageFrame.encode(MAGIC_BYTES, "verack", new byte[0]);
        InputStream in = new ByteArrayInputStream(concat(first, second));
        MessageFrame.Frame a = MessageFrame.read(in, MAGIC_BYTES);
        assertEquals("ping", a.command());
        assertEquals(ping, a.decode());
        assertArrayEquals(first, a.bytes());
        assertArrayEquals(Arrays.copyOfRange(first, 24, first.length), a.payload());
        MessageFrame.Frame b = MessageFrame.read(in, MAGIC_BYTES);
        assertEquals(new Message.Verack(), b.decode());
        assertArrayEquals(second, b.bytes());
        EOFException end = assertThrows(EOFException.class, () -> MessageFrame.read(in, MAGIC_BYTES));
        assertTrue(end.getMessage().contains("at a frame boundary"), end.getMessage());
    }

    @Test
    void readRefusesATruncatedHeader() {
        byte[] frame = MessageFrame.encode(MAGIC_BYTES, "verack", new byte[0]);
        EOFException e = assertThrows(
                EOFException.class,
                () -> MessageFrame.read(new ByteArrayInputStream(Arrays.copyOf(frame, 23)), MAGIC_BYTES));
        assertTrue(e.getMessage().contains("23 of 24 frame header bytes"), e.getMessage());
    }

    @Test
    void readRefusesATruncatedPayload() {
        byte[] frame = MessageFrame.encode(MAGIC_BYTES, "ping", new byte[8]);
        EOFException e = assertThrows(
                EOFException.class,
                () -> MessageFrame.read(new ByteArrayInputStream(Arrays.copyOf(frame, 24 + 5)), MAGIC_BYTES));
        assertTrue(e.getMessage().contains("5 of 8 payload bytes of ping"), e.getMessage());
    }

    @Test
    void readRefusesAnOversizedLengthBeforeReadingThePayload() {
        byte[] header = MessageFrame.encode(MAGIC_BYTES, "block", new byte[0]);
        header[19] = 0x7f; // ~2 GB claimed, nothing follows
        CountingStream in = new CountingStream(concat(header, new byte[1000]));
        WireFormatException e = assertThrows(WireFormatException.class, () -> MessageFrame.read(in, MAGIC_BYTES));
        assertEquals("length", e.field());
        assertEquals(24, in.taken, "only the header was read");
    }

    @Test
    void readRefusesTheWrongMagic() {
        byte[] frame = MessageFrame.encode(HexFormat.of().parseHex("f9beb4d9"), "verack", new byte[0]);
        WireFormatException e = assertThrows(
                WireFormatException.class, () -> MessageFrame.read(new ByteArrayInputStream(frame), MAGIC_BYTES));
        assertEquals("magic", e.field());
    }

    @Test
    void aReadFrameWithABadChecksumIsRefusedWhenDecoded() throws IOException {
        byte[] frame = MessageFrame.encode(MAGIC_BYTES, "ping", new byte[8]);
        frame[24] = 1;
        MessageFrame.Frame f = MessageFrame.read(new ByteArrayInputStream(frame), MAGIC_BYTES);
        assertArrayEquals(frame, f.bytes(), "relayed as received");
        assertEquals(
                "checksum", assertThrows(WireFormatException.class, f::decode).field());
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** Counts the bytes taken from it. */
    private static final class CountingStream extends ByteArrayInputStream {
        int taken;

        CountingStream(byte[] b) {
            super(b);
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            int n = super.read(b, off, len);
            taken += Math.max(n, 0);
            return n;
        }

        @Override
        public synchronized int read() {
            int c = super.read();
            taken += c < 0 ? 0 : 1;
            return c;
        }
    }
}
