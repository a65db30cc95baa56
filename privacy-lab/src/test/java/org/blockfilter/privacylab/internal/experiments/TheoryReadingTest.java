package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.report.Template;
import org.junit.jupiter.api.Test;

/** Experiment 6's readings are chosen from its numbers, each way they can fall. */
class TheoryReadingTest {
    private static final Template.Sections TEXT = Template.load("exp6.txt");

    @Test
    void theGcsIsCalledSmallerOnlyWhenItIs() {
        String smaller = TheoryExperiment.spaceReading(TEXT, 21.0584, 19.5822, 28.2512);
        assertTrue(
                smaller.endsWith("needs 28.25, 34% more than the GCS. That is why BIP 158 chose a GCS for filters"
                        + " that are stored and downloaded for every block."),
                smaller);
        String larger = TheoryExperiment.spaceReading(TEXT, 30.0, 19.5822, 28.2512);
        assertTrue(larger.endsWith("needs 28.25, so in this run the GCS is not the smaller of the two."), larger);
        assertFalse(larger.contains("That is why"), larger);
    }

    private static Map<String, Object> agreementValues() {
        Map<String, Object> a = new HashMap<>();
        for (String k : List.of(
                "avoidedFirst",
                "avoidedLast",
                "seedFirst",
                "seedLast",
                "aboveFirst",
                "aboveLast",
                "formulaFirst",
                "formulaLast",
                "seedBits",
                "ratio",
                "perWord",
                "lnConstant")) {
            a.put(k, k);
        }
        return a;
    }

    @Test
    void theSeedAgreementSentencesFollowTheComparisons() {
        String both = SeedResults.bloomAgreement(TEXT, agreementValues(), true, true);
        assertTrue(both.startsWith("The disk accesses avoided agree with the seed to its printed digit"), both);
        assertTrue(both.contains("so they carry a larger constant"), both);
        String neither = SeedResults.bloomAgreement(TEXT, agreementValues(), false, false);
        assertTrue(neither.startsWith("The disk accesses avoided differ from the seed at its printed digit"), neither);
        assertTrue(neither.contains("off the formula's formulaFirst and formulaLast bits, not both above"), neither);
        assertFalse(neither.contains("larger constant"), neither);
    }

    @Test
    void threeBitCountersAreRejectedOnlyWhenABillionOfThemExpectAnOverflow() {
        assertEquals(
                "Three-bit counters (overflow at 8) would not do: 7.15e-07 per counter.",
                SeedResults.threeBits(TEXT, List.of("3", "8", "", "9.47e-06", "7.15e-07", "1.00")));
        assertEquals(
                "Three-bit counters (overflow at 8) would do too: 7.15e-13 per counter, 7.15e-04 for a billion counters.",
                SeedResults.threeBits(TEXT, List.of("3", "8", "", "9.47e-12", "7.15e-13", "7.15e-04")));
    }
}
