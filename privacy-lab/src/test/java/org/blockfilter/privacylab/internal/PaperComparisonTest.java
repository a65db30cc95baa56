package org.blockfilter.privacylab.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The paper's printed numbers stand beside the recomputed model and the lab's own figures, each with its source. */
class PaperComparisonTest {
    private static Csv phTable() {
        return phTable("0.81", "0.82");
    }

    private static Csv phTable(String model10, String ours10) {
        Csv ph = new Csv(PaperComparison.PH_COLUMNS);
        ph.row(5, 5, "", "0.91", "0.92", "0.90", "0.93", 3, "1.0", "1.0", "1.0", 1);
        ph.row(10, 10, PaperComparison.printed(10, 10), model10, ours10, "0.80", "0.84", 3, "1.0", "1.0", "1.0", 1);
        return ph;
    }

    @Test
    void printedNumbersSitBesideTheModelAndTheLabsFigureForTheSameCell() {
        Csv t = PaperComparison.printedTable(33_000_000L, phTable());
        List<String> n10 = t.rows().get(0);
        assertEquals("0.99", n10.get(1));
        assertEquals("0.81", n10.get(2), "the model column comes from the P_h table's N = 10, j = 10 row");
        assertEquals("0.82 [0.80, 0.84]", n10.get(3), "the lab column is ours with its interval");
        assertEquals("N = 5: 0.92; N = 10: 0.82", t.rows().get(1).get(3));
        for (List<String> r : t.rows()) {
            assertFalse(r.get(1).isEmpty(), "every row is a printed number: " + r);
            assertTrue(r.get(4).contains("ebrary.net"), "every row names where it was read: " + r);
            assertFalse(r.get(5).isEmpty(), "every row says why the figures differ: " + r);
        }
    }

    @Test
    void differenceSentenceFollowsWhetherOursAndTheModelAreAboveThePrintedValue() {
        assertTrue(PaperComparison.printedTable(33_000_000L, phTable("0.81", "0.82"))
                .rows()
                .get(0)
                .get(5)
                .startsWith("Ours or the model is not above"));
        assertTrue(PaperComparison.printedTable(33_000_000L, phTable("0.997", "0.997"))
                .rows()
                .get(0)
                .get(5)
                .startsWith("Ours and the model are higher"));
    }

    @Test
    void newWalletCapacityIsMeasuredOnBitcoinjsFilterNotCopiedFromThePaper() {
        Csv t = PaperComparison.printedTable(33_000_000L, phTable());
        List<String> m = t.rows().get(2);
        assertEquals("102", m.get(1));
        // 2 elements (pubkey and hash) + 100 headroom, and bitcoinj's 201-byte, 10-function filter at 0.05%
        assertEquals("102 (bitcoinj's filter: 201 bytes, 10 hash functions)", m.get(3));
    }

    @Test
    void universeRowSaysWhenQuickModeTestsFewerAddressesThanThePaper() {
        assertTrue(PaperComparison.printedTable(33_000_000L, phTable())
                .rows()
                .get(3)
                .get(5)
                .startsWith("Same size"));
        assertTrue(PaperComparison.printedTable(1_000_000L, phTable())
                .rows()
                .get(3)
                .get(5)
                .startsWith("Quick mode"));
    }

    @Test
    void onlyThePrintedPhCellIsFilledAndFourSourcesAreQuoted() {
        assertEquals(4, PaperComparison.PRINTED_QUOTES.size());
        assertEquals("0.99", PaperComparison.printed(10, 10));
        for (int n : PaperComparison.PAPER_NS) {
            for (int j = 1; j <= n; j++) {
                if (n != 10 || j != 10) {
                    assertEquals("", PaperComparison.printed(n, j), "N = " + n + ", j = " + j);
                }
            }
        }
    }

    @Test
    void missingPhCellIsAClearError() {
        Csv empty = new Csv(phTable().header().toArray(String[]::new));
        assertThrows(IllegalStateException.class, () -> PaperComparison.printedTable(33_000_000L, empty));
    }
}
