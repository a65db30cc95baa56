package org.blockfilter.filters.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.bitcoinj.base.Sha256Hash;
import org.junit.jupiter.api.Test;

class WireReaderWriterTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final Sha256Hash HASH =
            Sha256Hash.wrap("000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f");

    @Test
    void integersAreLittleEndianExceptThePort() {
        byte[] b = new WireWriter()
                .u8(0xab)
                .u16le(0x1234)
                .u16be(0x208d)
                .u32le(0xdeadbeefL)
                .u64le(0x0102030405060708L)
                .toByteArray();
        assertEquals("ab" + "3412" + "208d" + "efbeadde" + "0807060504030201", HEX.formatHex(b));
        WireReader r = new WireReader(b);
        assertEquals(0xab, r.u8("a"));
        assertEquals(0x1234, r.u16le("b"));
        assertEquals(0x208d, r.u16be("c"));
        assertEquals(0xdeadbeefL, r.u32le("d"));
        assertEquals(0x0102030405060708L, r.u64le("e"));
        r.end("message");
    }

    @Test
    void u32AndU64KeepTheHighBit() {
        WireReader r = new WireReader(new WireWriter().u32le(-1).u64le(-1).toByteArray());
        assertEquals(0xffff_ffffL, r.u32le("u32"));
        assertEquals(-1L, r.u64le("u64"), "2^64 - 1 comes back as the same 64 bits");
    }

    @Test
    void hashesTravelInInternalOrder() {
        byte[] b = new WireWriter().hash(HASH).toByteArray();
        assertEquals("6fe28c0ab6f1b372c1a6a246ae63f74f931e8365e15a089c68d6190000000000", HEX.formatHex(b));
        assertEquals(HASH, new WireReader(b).hash("hash"));
    }

    @Test
    void varBytesAndVarStringRoundTrip() {
        byte[] b = new WireWriter()
                .varBytes(new byte[300])
                .varString("/Satoshi:27.0/")
                .toByteArray();
        WireReader r = new WireReader(b);
        assertEquals(300, r.varBytes("script", 300).length);
        assertEquals("/Satoshi:27.0/", r.varString("user_agent", 256));
        r.end("message");
    }

    @Test
    void varBytesOverTheCapIsRejectedBeforeAllocating() {
        byte[] b = new WireWriter().compactSize(0xffff_ffffL).toByteArray();
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> new WireReader(b).varBytes("filter", 4_000_000));
        assertEquals("filter length", e.field());
        assertEquals("4294967295", e.value());
    }

    @Test
    void varBytesLongerThanTheInputIsRejected() {
        byte[] b = HEX.parseHex("0a0102");
        WireFormatException e = assertThrows(WireFormatException.class, () -> new WireReader(b).varBytes("f", 100));
        assertEquals("f at byte offset 1: length 10 runs past the end (2 bytes left)", e.getMessage());
    }

    @Test
    void varStringMustBeUtf8() {
        byte[] b = HEX.parseHex("02c328");
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> new WireReader(b).varString("reason", 10));
        assertEquals("reason", e.field());
        assertEquals(0, e.offset());
    }

    @Test
    void truncatedFieldNamesTheFieldAndOffset() {
        WireReader r = new WireReader(HEX.parseHex("010203"));
        r.u8("first");
        WireFormatException e = assertThrows(WireFormatException.class, () -> r.u32le("nTweak"));
        assertEquals("nTweak at byte offset 1: needs 4 bytes, 2 left", e.getMessage());
    }

    @Test
    void countBeyondWhatTheBytesCanHoldIsRejected() {
        byte[] b = new WireWriter().compactSize(3).hash(HASH).toByteArray();
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> new WireReader(b).count("hashes", 2000, 32));
        assertEquals("hashes = 3 at byte offset 0: count needs 96 bytes, 32 left", e.getMessage());
    }

    @Test
    void trailingBytesAreAnError() {
        WireReader r = new WireReader(HEX.parseHex("0001"));
        r.u8("a");
        WireFormatException e = assertThrows(WireFormatException.class, () -> r.end("pong"));
        assertEquals(1, e.offset());
        assertTrue(e.getMessage().contains("trailing"), e.getMessage());
    }

    @Test
    void aSliceReportsOffsetsIntoTheWholeArray() {
        byte[] b = HEX.parseHex("ffff" + "fd");
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> new WireReader(b, 2, 3).compactSize("n", -1));
        assertEquals(2, e.offset());
    }

    @Test
    void writerCopiesAreIndependent() {
        WireWriter w = new WireWriter().u8(1);
        byte[] first = w.toByteArray();
        w.u8(2);
        assertArrayEquals(new byte[] {1}, first);
        assertEquals(2, w.size());
    }
}
