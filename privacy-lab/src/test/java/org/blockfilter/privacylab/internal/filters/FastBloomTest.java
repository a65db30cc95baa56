package org.blockfilter.privacylab.internal.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bitcoinj.core.BloomFilter;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.UpdateFlag;
import org.blockfilter.privacylab.internal.universe.AddressUniverse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fast scanner must give bitcoinj's answer for every candidate; this is what licenses using it. */
class FastBloomTest {

    @org.junit.jupiter.api.Test
    void divisionFreeRemainderIsExactForEveryFilterSizeAndEdgeHashes() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
        for (int bytes = 1; bytes <= 36_000; bytes += bytes < 100 ? 1 : 97) {
            BloomFilter f = Bip37Filter.of(bytes, 1, 0, UpdateFlag.UPDATE_NONE).toBitcoinj();
            f.insert(new byte[] {1});
            FastBloom fast = FastBloom.of(f);
            long m = 8L * bytes;
            for (long h : new long[] {0, 1, m - 1, m, m + 1, 0xffffffffL, 0xfffffffeL, 0x80000000L}) {
                assertEquals(h % m, fast.remainder(h), "h=" + h + " m=" + m);
            }
            for (int i = 0; i < 200; i++) {
                long h = rnd.nextLong(1L << 32);
                assertEquals(h % m, fast.remainder(h), "h=" + h + " m=" + m);
            }
        }
    }

    @ParameterizedTest(name = "{0} bytes, {1} functions, {2} elements, tweak {3}")
    @CsvSource({"1,1,1,0", "3,5,3,2147483649", "35,19,10,7", "64,3,200,-1", "1000,11,600,123456", "36000,50,20000,99"})
    void agreesWithBitcoinjContainsOnEveryCandidateOfASample(int bytes, int funcs, int elements, long tweak) {
        BloomFilter f = Bip37Filter.of(bytes, funcs, (int) tweak, UpdateFlag.UPDATE_NONE)
                .toBitcoinj();
        AddressUniverse members = new AddressUniverse(1);
        byte[] e = new byte[AddressUniverse.HASH_BYTES];
        for (int i = 0; i < elements; i++) {
            members.hash160(i, e);
            f.insert(e.clone());
        }
        FastBloom fast = FastBloom.of(f);
        AddressUniverse probes = new AddressUniverse(2);
        byte[] h = new byte[AddressUniverse.HASH_BYTES];
        byte[] k = new byte[AddressUniverse.PUBKEY_BYTES];
        int positives = 0;
        for (int i = 0; i < 50_000; i++) {
            probes.hash160(i, h);
            probes.pubKey(i, k);
            boolean expected = f.contains(h);
            assertEquals(expected, fast.contains(h, h.length), "hash candidate " + i);
            assertEquals(f.contains(k), fast.contains(k, k.length), "pubkey candidate " + i);
            positives += expected ? 1 : 0;
        }
        for (int i = 0; i < elements; i++) {
            members.hash160(i, e);
            assertTrue(fast.contains(e, e.length), "member " + i);
        }
        assertTrue(positives < 50_000, "a filter that matches everything tests nothing");
    }
}
