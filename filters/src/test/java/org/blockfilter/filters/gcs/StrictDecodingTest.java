package org.blockfilter.filters.gcs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.blockfilter.filters.Vectors;
import org.junit.jupiter.api.Test;

/** Hostile and malformed encodings: each is rejected with a FilterFormatException naming what is wrong. */
class StrictDecodingTest {

    private static final int P = 19;
    private static final long M = 784_931;
    private static final byte[] KEY = new byte[16];

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    private static FilterFormatException rejects(byte[] encoded) {
        return assertThrows(FilterFormatException.class, () -> GolombCodedSet.decode(P, M, KEY, encoded));
    }

    private static byte[] valid(int count) {
        return GolombCodedSet.build(P, M, KEY, GolombCodedSetTest.randomItems(new Random(count), count))
                .encoded();
    }

    @Test
    void rejectsEmptyInput() {
        FilterFormatException e = rejects(new byte[0]);
        assertEquals("N", e.field());
        assertEquals(0, e.offset());
    }

    @Test
    void rejectsTruncatedCompactSize() {
        FilterFormatException e = rejects(hex("fd01"));
        assertEquals("N", e.field());
        assertEquals(0, e.offset());
        assertEquals("N", rejects(hex("fe010000")).field());
        assertEquals("N", rejects(hex("ff01000000000000")).field());
    }

    @Test
    void rejectsNonCanonicalCompactSize() {
        FilterFormatException e = rejects(hex("fd0100" + "00".repeat(8)));
        assertEquals("N", e.field());
        assertEquals("1", e.value());
        assertEquals("N", rejects(hex("fe00010000" + "00".repeat(8))).field());
        assertEquals("N", rejects(hex("ff0000000001000000" + "00".repeat(8))).field());
    }

    @Test
    void rejectsNOfTwoToThe32OrMore() {
        FilterFormatException e = rejects(hex("ff0000000001000000" + "00".repeat(64)));
        assertEquals("N", e.field());
        assertEquals(Long.toString(1L << 32), e.value());
        assertEquals("N", rejects(hex("ffffffffffffffffff")).field());
    }

    @Test
    void rejectsNThatTheRemainingBitsCannotHold() {
        // 2^32 - 1 elements claimed, 1 MiB of data: at least 20 bits each would need ~10 GiB.
        byte[] encoded = new byte[5 + (1 << 20)];
        encoded[0] = (byte) 0xfe;
        Arrays.fill(encoded, 1, 5, (byte) 0xff);
        FilterFormatException e = rejects(encoded);
        assertEquals("N", e.field());
        assertEquals("4294967295", e.value());
        assertEquals(0, e.offset());
        // 2 elements need at least 40 bits; 32 follow.
        assertEquals("N", rejects(hex("02" + "00000000")).field());
    }

    @Test
    void rejectsTruncatedStream() {
        byte[] full = valid(50);
        for (int cut = 2; cut < full.length; cut++) {
            FilterFormatException e = rejects(Arrays.copyOf(full, cut));
            assertTrue(
                    e.field().equals("N")
                            || e.field().startsWith("element")
                            || e.field().equals("quotient"),
                    e.getMessage());
            assertTrue(e.offset() <= cut, e.getMessage());
        }
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] full = valid(50);
        byte[] longer = Arrays.copyOf(full, full.length + 1);
        FilterFormatException e = rejects(longer);
        assertEquals("trailing data", e.field());
        assertEquals(full.length, e.offset());
        assertEquals("trailing data", rejects(hex("0000")).field());
    }

    @Test
    void rejectsNonZeroPaddingBits() {
        // One element of 20 bits in 3 bytes leaves 4 padding bits.
        byte[] one = valid(1);
        assertEquals(4, one.length);
        byte[] padded = one.clone();
        padded[3] |= 0x01;
        FilterFormatException e = rejects(padded);
        assertEquals("padding", e.field());
        assertEquals(3, e.offset());
    }

    @Test
    void rejectsAQuotientRunLongerThanTheRange() {
        // N = 1 gives range M = 784931 < 2 * 2^19, so any quotient above 1 is impossible.
        FilterFormatException e = rejects(hex("01" + "ffffffff"));
        assertEquals("quotient", e.field());
        // A run of ones through a long stream stops at the bound, not at the end of the data.
        byte[] longRun = new byte[1 + 100_000];
        longRun[0] = 1;
        Arrays.fill(longRun, 1, longRun.length, (byte) 0xff);
        FilterFormatException e2 = rejects(longRun);
        assertEquals("quotient", e2.field());
        assertTrue(e2.offset() < 16, e2.getMessage());
    }

    @Test
    void rejectsAnElementValueNotBelowTheRange() {
        // N = 1, quotient 1, remainder 2^19 - 1: value 2^20 - 1 >= M.
        FilterFormatException e = rejects(hex("01" + "bffffc"));
        assertEquals("element 0", e.field());
        assertEquals(Long.toString((1L << 20) - 1), e.value());
    }

    @Test
    void everyRejectionNamesFieldValueAndOffsetInItsMessage() {
        FilterFormatException e = rejects(hex("0000"));
        assertTrue(e.getMessage().contains(e.field()));
        assertTrue(e.getMessage().contains(e.value()));
        assertTrue(e.getMessage().contains("offset " + e.offset()));
    }

    @Test
    void acceptsEveryVectorFilterAndReEncodesItByteForByte() {
        for (Vectors.BlockFilterRow row : Vectors.blockFilters()) {
            byte[] key = org.blockfilter.filters.BasicFilter.key(row.blockHash());
            byte[] bytes = row.filterBytes();
            assertArrayEquals(bytes, GolombCodedSet.decode(P, M, key, bytes).encoded(), row::toString);
        }
    }

    @Test
    void decodesLargeCanonicalSets() {
        for (int count : List.of(0, 1, 253, 65_536)) {
            GolombCodedSet built = GolombCodedSet.build(P, M, KEY, GolombCodedSetTest.distinctItems(count));
            assertEquals(count, built.size());
            assertEquals(built, GolombCodedSet.decode(P, M, KEY, built.encoded()));
        }
    }
}
