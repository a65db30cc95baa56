package org.blockfilter.filters.gcs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GolombCodedSetTest {

    private static final int P = 19;
    private static final long M = 784_931;
    private static final byte[] KEY = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f");

    static List<byte[]> randomItems(Random random, int count) {
        List<byte[]> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] item = new byte[1 + random.nextInt(40)];
            random.nextBytes(item);
            items.add(item);
        }
        return items;
    }

    /** {@code count} distinct items: 4-byte big-endian counters. */
    static List<byte[]> distinctItems(int count) {
        List<byte[]> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            items.add(new byte[] {(byte) (i >>> 24), (byte) (i >>> 16), (byte) (i >>> 8), (byte) i});
        }
        return items;
    }

    @Test
    void emptySetEncodesAsSingleZeroByte() {
        GolombCodedSet set = GolombCodedSet.build(P, M, KEY, List.of());
        assertArrayEquals(new byte[] {0}, set.encoded());
        assertEquals(0, set.size());
        assertFalse(set.match(new byte[] {1}));
        assertFalse(set.matchAny(List.of(new byte[] {1}, new byte[0])));
    }

    @Test
    void emptyFilterBytesDecodeToTheEmptySet() {
        GolombCodedSet set = GolombCodedSet.decode(P, M, KEY, new byte[] {0});
        assertEquals(0, set.size());
        assertEquals(GolombCodedSet.build(P, M, KEY, List.of()), set);
        assertFalse(set.match(new byte[0]));
    }

    @Test
    void emptyQueryMatchesNothing() {
        GolombCodedSet set = GolombCodedSet.build(P, M, KEY, randomItems(new Random(1), 100));
        assertFalse(set.matchAny(List.of()));
    }

    @Test
    void firstAbsentAgreesWithMatchingEachItem() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            List<byte[]> members = randomItems(random, random.nextInt(60));
            GolombCodedSet set = GolombCodedSet.build(P, M, KEY, members);
            List<byte[]> query = new ArrayList<>();
            for (int i = random.nextInt(40); i > 0; i--) {
                boolean member = !members.isEmpty() && random.nextInt(4) > 0;
                query.add(
                        member
                                ? members.get(random.nextInt(members.size()))
                                : randomItems(random, 1).get(0));
            }
            int expected = -1;
            for (int i = 0; i < query.size() && expected < 0; i++) {
                if (!set.match(query.get(i))) {
                    expected = i;
                }
            }
            assertEquals(expected, set.firstAbsent(query), "round " + round);
        }
    }

    @Test
    void matchEachAgreesWithMatchingEachItem() {
        Random random = new Random(11);
        for (int round = 0; round < 200; round++) {
            List<byte[]> members = randomItems(random, random.nextInt(60));
            GolombCodedSet set = GolombCodedSet.build(P, M, KEY, members);
            List<byte[]> query = new ArrayList<>();
            for (int i = random.nextInt(40); i > 0; i--) {
                boolean member = !members.isEmpty() && random.nextInt(3) > 0;
                query.add(
                        member
                                ? members.get(random.nextInt(members.size()))
                                : randomItems(random, 1).get(0));
            }
            boolean[] each = set.matchEach(query);
            assertEquals(query.size(), each.length);
            for (int i = 0; i < query.size(); i++) {
                assertEquals(set.match(query.get(i)), each[i], "round " + round + ", item " + i);
            }
        }
        assertEquals(0, GolombCodedSet.build(P, M, KEY, List.of()).matchEach(List.of()).length);
        assertFalse(GolombCodedSet.build(P, M, KEY, List.of()).matchEach(List.of(new byte[] {1}))[0]);
    }

    @Test
    void firstAbsentOfAnEmptyQueryIsNone() {
        assertEquals(-1, GolombCodedSet.build(P, M, KEY, List.of()).firstAbsent(List.of()));
        assertEquals(0, GolombCodedSet.build(P, M, KEY, List.of()).firstAbsent(List.of(new byte[] {1})));
    }

    @Test
    void duplicateItemsCountOnce() {
        byte[] a = {1, 2, 3};
        byte[] b = {4, 5};
        GolombCodedSet withDuplicates = GolombCodedSet.build(P, M, KEY, List.of(a, b, a.clone(), a, b.clone()));
        GolombCodedSet distinct = GolombCodedSet.build(P, M, KEY, List.of(a, b));
        assertEquals(2, withDuplicates.size());
        assertEquals(distinct, withDuplicates);
        assertArrayEquals(distinct.encoded(), withDuplicates.encoded());
    }

    @Test
    void itemOrderDoesNotMatter() {
        List<byte[]> items = randomItems(new Random(2), 500);
        List<byte[]> reversed = new ArrayList<>(items);
        java.util.Collections.reverse(reversed);
        assertEquals(GolombCodedSet.build(P, M, KEY, items), GolombCodedSet.build(P, M, KEY, reversed));
    }

    /** Finds an item whose value in a one-element set is 0: about one in M items. */
    private static byte[] itemHashingToZero() {
        long k0 = SipHash.keyHalf(KEY, 0);
        long k1 = SipHash.keyHalf(KEY, 8);
        byte[] item = new byte[8];
        for (long i = 0; ; i++) {
            for (int b = 0; b < 8; b++) {
                item[b] = (byte) (i >>> (8 * b));
            }
            if (GolombCodedSet.hashToRange(SipHash.hash24(k0, k1, item), M) == 0) {
                return item;
            }
        }
    }

    @Test
    void elementHashingToZeroIsEncodedAndMatched() {
        byte[] zero = itemHashingToZero();
        GolombCodedSet set = GolombCodedSet.build(P, M, KEY, List.of(zero));
        // N = 1, then delta 0: quotient 0 is the stop bit 0 alone, then 19 zero bits, padded to 3 bytes.
        assertArrayEquals(new byte[] {1, 0, 0, 0}, set.encoded());
        assertArrayEquals(new long[] {0}, set.values());
        assertTrue(set.match(zero));
        assertTrue(set.matchAny(List.of(zero)));
        assertEquals(set, GolombCodedSet.decode(P, M, KEY, set.encoded()));
    }

    @Test
    void hashToRangeIsTheHigh64BitsOfTheUnsignedProduct() {
        Random random = new Random(3);
        for (int i = 0; i < 10_000; i++) {
            long hash = random.nextLong();
            long f = random.nextLong();
            java.math.BigInteger expected = new java.math.BigInteger(Long.toUnsignedString(hash))
                    .multiply(new java.math.BigInteger(Long.toUnsignedString(f)))
                    .shiftRight(64);
            assertEquals(expected.longValue(), GolombCodedSet.hashToRange(hash, f));
        }
        assertEquals(-2L, GolombCodedSet.hashToRange(-1L, -1L)); // (2^64-1)^2 >> 64 = 2^64 - 2
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {0, 1, 2, 3, 100, 7_400, 50_000})
    void everyInsertedItemMatchesAndDecodeInvertsEncode(int count) {
        Random random = new Random(count);
        List<byte[]> items = randomItems(random, count);
        GolombCodedSet set = GolombCodedSet.build(P, M, KEY, items);
        // match() walks the stream, so checking all of a huge set is quadratic: sample it instead.
        int step = count > 10_000 ? 97 : 1;
        for (int i = 0; i < count; i += step) {
            assertTrue(set.match(items.get(i)));
        }
        assertEquals(count > 0, set.matchAny(items));
        GolombCodedSet decoded = GolombCodedSet.decode(P, M, KEY, set.encoded());
        assertEquals(set, decoded);
        assertArrayEquals(set.encoded(), decoded.encoded());
        assertArrayEquals(set.values(), decoded.values());
        long[] values = set.values();
        for (int i = 1; i < values.length; i++) {
            assertTrue(values[i - 1] <= values[i]);
        }
    }

    @Test
    void roundTripsForOtherParameters() {
        Random random = new Random(4);
        for (int trial = 0; trial < 300; trial++) {
            int p = 1 + random.nextInt(GolombCodedSet.MAX_P);
            // Keep M near 2^P so that quotients stay short, plus some far-off pairs.
            long m = trial % 10 == 0
                    ? 1 + random.nextInt(1000)
                    : Math.max(1, (1L << p) + random.nextInt(1 << Math.min(p, 20)) - (1L << Math.max(0, p - 1)));
            m = Math.min(m, 0xffff_ffffL);
            byte[] key = new byte[16];
            random.nextBytes(key);
            List<byte[]> items = randomItems(random, random.nextInt(300));
            GolombCodedSet set = GolombCodedSet.build(p, m, key, items);
            GolombCodedSet decoded = GolombCodedSet.decode(p, m, key, set.encoded());
            assertEquals(set, decoded, () -> "P=" + p);
            for (byte[] item : items) {
                assertTrue(decoded.match(item));
            }
        }
    }

    @Test
    void longQuotientRunsRoundTrip() {
        // M far above 2^P: quotients of thousands of bits, longer than the decoder's 64-bit buffer.
        List<byte[]> items = randomItems(new Random(8), 40);
        GolombCodedSet set = GolombCodedSet.build(2, 100_000, KEY, items);
        GolombCodedSet decoded = GolombCodedSet.decode(2, 100_000, KEY, set.encoded());
        assertEquals(set, decoded);
        assertTrue(set.encodedLength() > 40 * 1000, "runs are long");
        for (byte[] item : items) {
            assertTrue(decoded.match(item));
        }
        assertTrue(decoded.matchAny(items));
    }

    @Test
    void largestMStillRoundTrips() {
        List<byte[]> items = randomItems(new Random(5), 1000);
        GolombCodedSet set = GolombCodedSet.build(32, 0xffff_ffffL, KEY, items);
        assertEquals(set, GolombCodedSet.decode(32, 0xffff_ffffL, KEY, set.encoded()));
        for (byte[] item : items) {
            assertTrue(set.match(item));
        }
    }

    @Test
    void matchAnyAgreesWithMatchOnMixedQueries() {
        Random random = new Random(6);
        List<byte[]> members = randomItems(random, 2000);
        GolombCodedSet set = GolombCodedSet.build(P, M, KEY, members);
        for (int trial = 0; trial < 200; trial++) {
            List<byte[]> query = randomItems(random, random.nextInt(50));
            if (trial % 3 == 0) {
                query.add(members.get(random.nextInt(members.size())));
            }
            boolean any = false;
            for (byte[] q : query) {
                any |= set.match(q);
            }
            assertEquals(any, set.matchAny(query));
        }
    }

    @Test
    void copiesBytesInAndOut() {
        byte[] key = KEY.clone();
        byte[] item = {9, 9, 9};
        GolombCodedSet set = GolombCodedSet.build(P, M, key, List.of(item));
        key[0] ^= 1;
        item[0] = 0;
        assertTrue(set.match(new byte[] {9, 9, 9}));
        assertArrayEquals(KEY, set.key());
        set.key()[0] ^= 1;
        set.encoded()[0] ^= 1;
        assertArrayEquals(KEY, set.key());
        byte[] encoded = set.encoded();
        GolombCodedSet decoded = GolombCodedSet.decode(P, M, KEY, encoded);
        Arrays.fill(encoded, (byte) 0);
        assertEquals(set, decoded);
    }

    @Test
    void differentKeysGiveDifferentSets() {
        List<byte[]> items = randomItems(new Random(7), 10);
        byte[] other = KEY.clone();
        other[15] ^= 1;
        assertNotEquals(GolombCodedSet.build(P, M, KEY, items), GolombCodedSet.build(P, M, other, items));
    }

    @Test
    void rejectsBadParameters() {
        List<byte[]> none = List.of();
        assertThrows(IllegalArgumentException.class, () -> GolombCodedSet.build(0, M, KEY, none));
        assertThrows(IllegalArgumentException.class, () -> GolombCodedSet.build(33, M, KEY, none));
        assertThrows(IllegalArgumentException.class, () -> GolombCodedSet.build(P, 0, KEY, none));
        assertThrows(IllegalArgumentException.class, () -> GolombCodedSet.build(P, 1L << 32, KEY, none));
        assertThrows(IllegalArgumentException.class, () -> GolombCodedSet.build(P, M, new byte[15], none));
        assertThrows(NullPointerException.class, () -> GolombCodedSet.build(P, M, KEY, null));
        assertThrows(NullPointerException.class, () -> GolombCodedSet.build(P, M, KEY, Arrays.asList((byte[]) null)));
        assertThrows(IllegalArgumentException.class, () -> GolombCodedSet.decode(P, M, new byte[17], new byte[] {0}));
    }

    @Test
    void nullQueryItemsAreRejected() {
        GolombCodedSet set = GolombCodedSet.build(P, M, KEY, List.of(new byte[] {1}));
        assertThrows(NullPointerException.class, () -> set.match(null));
        assertThrows(NullPointerException.class, () -> set.matchAny(Arrays.asList(new byte[] {2}, null)));
    }
}
