package org.blockfilter.filters.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.Transaction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** All BIP 37 vectors (Bitcoin Core's bloom_tests/hash_tests), replayed step by step on {@link Bip37Filter}. */
class Bip37FilterVectorsTest {

    static List<Arguments> scenarios() {
        return Bip37Vectors.scenarios();
    }

    static List<Arguments> murmur() {
        return Bip37Vectors.murmur();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void bip37FilterReplaysEveryStepOfTheVector(Bip37Vectors.Scenario scenario) {
        StepReplayer.replay(scenario, new OurFilter());
    }

    @ParameterizedTest(name = "seed {0} data {1}")
    @MethodSource("murmur")
    void murmurHash3MatchesCoreVector(long seed, String dataHex, long expected) {
        assertEquals(
                expected,
                Integer.toUnsignedLong(
                        MurmurHash3.hash32((int) seed, HexFormat.of().parseHex(dataHex))));
    }

    /** bitcoinj only exposes the hash reduced modulo the filter's bits; with hashNum 0 the seed is the tweak. */
    @ParameterizedTest(name = "seed {0} data {1}")
    @MethodSource("murmur")
    void bitcoinjMurmurReducedModuloFilterBitsAgreesWithVector(long seed, String dataHex, long expected) {
        for (int size : new int[] {1, 3, 35, 36_000}) {
            int got = BloomFilter.murmurHash3(
                    new byte[size], seed, 0, HexFormat.of().parseHex(dataHex));
            assertEquals(expected % (8L * size), got, "filter of " + size + " bytes");
        }
    }

    /** Adapter from the vector steps to {@link Bip37Filter}. */
    static final class OurFilter implements StepReplayer.Subject {
        private Bip37Filter filter;

        @Override
        public void newFilter(int elements, double fpRate, int tweak, UpdateFlag flag) {
            filter = Bip37Filter.create(elements, fpRate, tweak, flag);
        }

        @Override
        public void insert(byte[] data) {
            filter.insert(data);
        }

        @Override
        public boolean contains(byte[] data) {
            return filter.contains(data);
        }

        @Override
        public boolean isRelevantAndUpdate(Transaction tx) {
            return filter.isRelevantAndUpdate(tx);
        }

        @Override
        public StepReplayer.Built buildMerkleBlock(Block block) {
            MerkleBlockMatch m = filter.filterBlock(block);
            return new StepReplayer.Built(m.matchedIndices(), m.matchedTxids(), m.serialize());
        }

        @Override
        public byte[] serializeFilter() {
            return filter.serialize();
        }
    }
}
