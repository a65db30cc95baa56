package org.blockfilter.filters.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CompactSizeTest {
    private static final HexFormat HEX = HexFormat.of();

    private static WireFormatException rejects(String hex, long max) {
        byte[] b = HEX.parseHex(hex);
        return assertThrows(WireFormatException.class, () -> CompactSize.read(b, 0, b.length, "count", max));
    }

    @ParameterizedTest(name = "{0} <-> {1}")
    @CsvSource({
        "0, 00",
        "252, fc",
        "253, fdfd00",
        "65535, fdffff",
        "65536, fe00000100",
        "4294967295, feffffffff",
        "4294967296, ff0000000001000000",
        "18446744073709551615, ffffffffffffffffff",
    })
    void roundTripsCanonicallyAtEveryBoundary(String unsigned, String hex) {
        long value = Long.parseUnsignedLong(unsigned);
        byte[] encoded = HEX.parseHex(hex);
        assertArrayEquals(encoded, CompactSize.encode(value));
        assertEquals(encoded.length, CompactSize.size(value));
        assertEquals(value, CompactSize.read(encoded, 0, encoded.length, "n", -1));
        assertArrayEquals(encoded, new WireWriter().compactSize(value).toByteArray());
        WireReader r = new WireReader(encoded);
        assertEquals(value, r.compactSize("n", -1));
        assertEquals(0, r.remaining());
    }

    @ParameterizedTest(name = "{0} is value {1} in the wrong width")
    @CsvSource({
        "fd0000, 0",
        "fdfc00, 252",
        "fe00000000, 0",
        "feffff0000, 65535",
        "ff0000000000000000, 0",
        "ffffffffff00000000, 4294967295",
    })
    void rejectsEachNonCanonicalForm(String hex, String value) {
        WireFormatException e = rejects(hex, -1);
        assertEquals("count", e.field());
        assertEquals(value, e.value());
        assertEquals(0, e.offset());
        assertTrue(e.getMessage().contains("non-canonical"), e.getMessage());
        assertTrue(e.getMessage().startsWith("count = " + value + " at byte offset 0"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"fd", "fdff", "fe", "feffffff", "ff", "ff00000000000000"})
    void rejectsTruncation(String hex) {
        WireFormatException e = rejects(hex, -1);
        assertEquals("count", e.field());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void rejectsAMissingValue() {
        WireFormatException e = rejects("", -1);
        assertNull(e.value());
        assertEquals(0, e.offset());
        assertEquals("count at byte offset 0: CompactSize missing: no bytes left", e.getMessage());
    }

    @Test
    void rejectsValuesOverTheCallersCapAndAcceptsTheCapItself() {
        byte[] atCap = CompactSize.encode(2000);
        assertEquals(2000, CompactSize.read(atCap, 0, atCap.length, "count", 2000));
        WireFormatException e = rejects(HEX.formatHex(CompactSize.encode(2001)), 2000);
        assertEquals("2001", e.value());
        assertEquals("count = 2001 at byte offset 0: CompactSize 2001 exceeds 2000", e.getMessage());
    }

    @Test
    void capIsComparedUnsigned() {
        WireFormatException e = rejects("ffffffffffffffffff", Long.MAX_VALUE);
        assertEquals("18446744073709551615", e.value());
    }

    @Test
    void errorsGiveTheOffsetWhereTheFieldStarts() {
        byte[] b = HEX.parseHex("0102fd0100");
        WireReader r = new WireReader(b);
        r.u16le("prefix");
        WireFormatException e = assertThrows(WireFormatException.class, () -> r.compactSize("length", -1));
        assertEquals(2, e.offset());
        assertEquals(2, r.position(), "a failed read does not move the position");
    }

    @Test
    void readsNoBytePastTheGivenEnd() {
        byte[] b = HEX.parseHex("fd0001");
        assertThrows(WireFormatException.class, () -> CompactSize.read(b, 0, 2, "n", -1));
    }
}
