package org.blockfilter.filters;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every row of the official BIP 158 vectors (Bitcoin Core's blockfilters.json). */
class BasicFilterVectorsTest {

    static List<Vectors.BlockFilterRow> rows() {
        return Vectors.blockFilters();
    }

    @Test
    void allTenRowsAreRead() {
        assertEquals(10, rows().size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void buildsTheVectorFilterFromBlockAndPrevScripts(Vectors.BlockFilterRow row) {
        Block block = row.block();
        assertEquals(row.blockHash(), block.getHash());
        BasicFilter filter = BasicFilter.build(block, PrevoutScripts.inInputOrder(block, row.prevScripts()));
        assertEquals(row.filterHex(), HexFormat.of().formatHex(filter.bytes()));
        assertEquals(row.blockHash(), filter.blockHash());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void chainsToTheVectorHeader(Vectors.BlockFilterRow row) {
        BasicFilter filter = BasicFilter.fromBytes(row.blockHash(), row.filterBytes());
        assertEquals(row.header(), filter.header(row.prevHeader()));
        assertEquals(row.header(), FilterHeaders.next(filter.filterHash(), row.prevHeader()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decodesTheVectorFilterToTheBuiltOne(Vectors.BlockFilterRow row) {
        Block block = row.block();
        PrevoutScripts prevouts = PrevoutScripts.inInputOrder(block, row.prevScripts());
        BasicFilter decoded = BasicFilter.fromBytes(row.blockHash(), row.filterBytes());
        BasicFilter built = BasicFilter.build(block, prevouts);
        assertEquals(built, decoded);
        assertEquals(built.hashCode(), decoded.hashCode());
        assertArrayEquals(row.filterBytes(), decoded.bytes());
        assertEquals(BasicFilter.elements(block, prevouts).size(), decoded.size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void everyElementOfTheBlockMatches(Vectors.BlockFilterRow row) {
        Block block = row.block();
        BasicFilter filter = BasicFilter.fromBytes(row.blockHash(), row.filterBytes());
        for (FilterElement e : BasicFilter.elements(block, PrevoutScripts.inInputOrder(block, row.prevScripts()))) {
            assertTrue(filter.match(e.bytes()), e::toString);
            assertTrue(filter.matchAny(List.of(new byte[] {1, 2, 3}, e.bytes())), e::toString);
        }
    }

    @Test
    void consecutiveRowsChainThroughFirstMismatch() {
        List<Vectors.BlockFilterRow> rows = rows();
        int chained = 0;
        for (int i = 1; i < rows.size(); i++) {
            Vectors.BlockFilterRow prev = rows.get(i - 1);
            Vectors.BlockFilterRow row = rows.get(i);
            if (row.height() != prev.height() + 1) {
                continue;
            }
            chained++;
            assertEquals(prev.header(), row.prevHeader());
            Sha256Hash filterHash =
                    BasicFilter.fromBytes(row.blockHash(), row.filterBytes()).filterHash();
            assertEquals(
                    OptionalInt.empty(),
                    FilterHeaders.firstMismatch(prev.header(), List.of(filterHash), List.of(row.header())));
        }
        assertTrue(chained > 0, "the vectors hold consecutive rows (heights 2 and 3)");
    }

    @Test
    void genesisRowStartsFromZeroPrevHeader() {
        Vectors.BlockFilterRow genesis = rows().get(0);
        assertEquals(0, genesis.height());
        assertEquals(FilterHeaders.GENESIS_PREV, genesis.prevHeader());
    }
}
