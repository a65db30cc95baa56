package org.blockfilter.filters.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Strict decoding of {@code filterload} and {@code filteradd} payloads. */
class Bip37FilterParseTest {
    private static final HexFormat HEX = HexFormat.of();

    private static BloomFilterFormatException reject(String hex) {
        return assertThrows(BloomFilterFormatException.class, () -> Bip37Filter.parse(HEX.parseHex(hex)));
    }

    @Test
    void decodeOfEncodeIsTheSameFilter() {
        Bip37Filter f = Bip37Filter.create(300, 0.0005, 0x12345678, UpdateFlag.UPDATE_P2PUBKEY_ONLY);
        for (int i = 0; i < 300; i++) {
            f.insert(new byte[] {(byte) i, (byte) (i >> 8), 3});
        }
        Bip37Filter back = Bip37Filter.parse(f.serialize());
        assertArrayEquals(f.serialize(), back.serialize());
        assertEquals(f.hashFuncs(), back.hashFuncs());
        assertEquals(0x12345678, back.tweak());
        assertEquals(UpdateFlag.UPDATE_P2PUBKEY_ONLY, back.updateFlag());
    }

    @Test
    void acceptsTheLargestFilterBip37Allows() {
        byte[] payload = new byte[3 + Bip37.MAX_BLOOM_FILTER_SIZE + 9];
        payload[0] = (byte) 0xfd;
        payload[1] = (byte) (Bip37.MAX_BLOOM_FILTER_SIZE & 0xff);
        payload[2] = (byte) (Bip37.MAX_BLOOM_FILTER_SIZE >> 8);
        payload[3 + Bip37.MAX_BLOOM_FILTER_SIZE] = (byte) Bip37.MAX_HASH_FUNCS;
        assertEquals(Bip37.MAX_BLOOM_FILTER_SIZE, Bip37Filter.parse(payload).sizeBytes());
    }

    @Test
    void rejectsFilterLongerThanMaxBloomFilterSize() {
        // 36,001 = 0x8ca1
        BloomFilterFormatException e = reject("fda18c");
        assertEquals("filter length", e.field());
        assertTrue(e.getMessage().contains("36001"), e.getMessage());
    }

    @Test
    void rejectsAbsurdLengthClaimWithoutAllocating() {
        BloomFilterFormatException e = reject("ffffffffffffffff7f");
        assertEquals("filter length", e.field());
    }

    @Test
    void rejectsMoreThanFiftyHashFunctions() {
        BloomFilterFormatException e = reject("01ff" + "33000000" + "00000000" + "00");
        assertEquals("nHashFuncs", e.field());
        assertEquals(2, e.offset());
        assertTrue(e.getMessage().contains("51"), e.getMessage());
    }

    @Test
    void rejectsNonCanonicalCompactSize() {
        BloomFilterFormatException e = reject("fd0100" + "ff" + "01000000" + "00000000" + "00");
        assertEquals("filter length", e.field());
        assertTrue(e.getMessage().contains("non-canonical"), e.getMessage());
    }

    @Test
    void rejectsTruncatedFieldsNamingTheField() {
        assertEquals("filter length", reject("").field());
        assertEquals("filter", reject("05ffff").field());
        assertEquals("nHashFuncs", reject("01ff0100").field());
        assertEquals("nTweak", reject("01ff01000000").field());
        BloomFilterFormatException flags = reject("01ff0100000000000000");
        assertEquals("nFlags", flags.field());
        assertEquals(10, flags.offset());
    }

    @Test
    void emptyFilterDecodesAndMatchesEverythingAsInCore() {
        Bip37Filter f = Bip37Filter.parse(HEX.parseHex("00" + "00000000" + "00000000" + "01"));
        assertEquals(0, f.sizeBytes());
        assertTrue(f.contains(new byte[0]));
    }

    @Test
    void filterAddAcceptsUpTo520BytesAndRejectsMore() {
        byte[] ok = new byte[3 + 520];
        ok[0] = (byte) 0xfd;
        ok[1] = (byte) (520 & 0xff);
        ok[2] = (byte) (520 >> 8);
        assertEquals(520, Bip37Filter.parseFilterAdd(ok).length);
        byte[] tooBig = new byte[3 + 521];
        tooBig[0] = (byte) 0xfd;
        tooBig[1] = (byte) (521 & 0xff);
        tooBig[2] = (byte) (521 >> 8);
        assertEquals(
                "element length",
                assertThrows(BloomFilterFormatException.class, () -> Bip37Filter.parseFilterAdd(tooBig))
                        .field());
        assertEquals(
                "end of message",
                assertThrows(BloomFilterFormatException.class, () -> Bip37Filter.parseFilterAdd(HEX.parseHex("0101ff")))
                        .field());
    }

    /** Random and mutated payloads either decode or fail with the typed error, never anything else. */
    @Test
    void randomAndMutatedPayloadsNeverThrowAnythingButTheTypedError() {
        SplittableRandom rnd = new SplittableRandom(7);
        byte[] valid = Bip37Filter.create(20, 0.01, 1, UpdateFlag.UPDATE_ALL).serialize();
        for (int i = 0; i < 20_000; i++) {
            byte[] p;
            if (i % 2 == 0) {
                p = new byte[rnd.nextInt(64)];
                rnd.nextBytes(p);
            } else {
                p = valid.clone();
                p[rnd.nextInt(p.length)] = (byte) rnd.nextInt(256);
                if (rnd.nextBoolean()) {
                    p = java.util.Arrays.copyOf(p, rnd.nextInt(p.length + 3));
                }
            }
            try {
                Bip37Filter f = Bip37Filter.parse(p);
                f.contains(p);
            } catch (BloomFilterFormatException expected) {
                assertTrue(expected.getMessage().contains("offset"));
            }
        }
    }
}
