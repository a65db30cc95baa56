package org.blockfilter.filters.bloom;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.Transaction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * The same BIP 37 vectors replayed on plain bitcoinj 0.17.1 ({@link BloomFilter} constructor, {@code applyAndUpdate}),
 * to record where bitcoinj itself agrees with Bitcoin Core and where it does not.
 *
 * <p>bitcoinj's {@code applyAndUpdate(Transaction)} tests {@code tx.getTxId().getBytes()}, the txid in display
 * (reversed) byte order, while BIP 37 and Core insert and test the txid in internal byte order. So a filter holding a
 * txid, as every vector that inserts one does, never matches that transaction in bitcoinj. {@link Bip37Filter} tests
 * the internal order and passes these vectors ({@link Bip37FilterVectorsTest}).
 */
class BitcoinjBloomFilterVectorsTest {
    /** Scenarios whose first match is a txid inserted in internal byte order. */
    private static final Set<String> TXID_SCENARIOS = Set.of(
            "bloom_match",
            "merkle_block_1",
            "merkle_block_2",
            "merkle_block_2_with_update_none",
            "merkle_block_3_and_serialize",
            "merkle_block_4");

    static List<Arguments> scenariosBitcoinjGetsRight() {
        return Bip37Vectors.scenarios().stream()
                .filter(a -> !TXID_SCENARIOS.contains(((Bip37Vectors.Scenario) a.get()[0]).name()))
                .toList();
    }

    static List<Arguments> txidScenarios() {
        return Bip37Vectors.scenarios().stream()
                .filter(a -> TXID_SCENARIOS.contains(((Bip37Vectors.Scenario) a.get()[0]).name()))
                .toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenariosBitcoinjGetsRight")
    void plainBitcoinjReplaysVectorsWithoutTxidMatches(Bip37Vectors.Scenario scenario) {
        StepReplayer.replay(scenario, new Plain());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("txidScenarios")
    void bitcoinjFailsTxidVectorsBecauseItTestsTxidInDisplayByteOrder(Bip37Vectors.Scenario scenario) {
        assertThrows(AssertionFailedError.class, () -> StepReplayer.replay(scenario, new Plain()));
    }

    static final class Plain implements StepReplayer.Subject {
        private BloomFilter filter;

        @Override
        public void newFilter(int elements, double fpRate, int tweak, UpdateFlag flag) {
            filter = new BloomFilter(elements, fpRate, tweak, flag.toBitcoinj());
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
            return filter.applyAndUpdate(tx);
        }

        @Override
        public StepReplayer.Built buildMerkleBlock(Block block) {
            FilteredBlock fb = filter.applyAndUpdate(block);
            List<Sha256Hash> all = new ArrayList<>();
            block.getTransactions().forEach(t -> all.add(t.getTxId()));
            List<Integer> idx = new ArrayList<>();
            List<Sha256Hash> txids = new ArrayList<>(fb.getTransactionHashes());
            txids.forEach(h -> idx.add(all.indexOf(h)));
            return new StepReplayer.Built(idx, txids, fb.serialize());
        }

        @Override
        public byte[] serializeFilter() {
            return filter.serialize();
        }
    }
}
