package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.blockfilter.privacylab.internal.report.Csv;
import org.junit.jupiter.api.Test;

/** Experiment 8's paragraph on repeated blocks says what the block-by-block rows show against one range. */
class FetchPolicyRepeatsTest {
    private static Csv byBlock(String rangePerMatch, String byBlockPerMatch) {
        Csv t = new Csv("N", "sources", "policy", "sync", "blocks/match", "distinct blocks/match");
        t.row(1, 1, "none", "one range", "1.0 [1.0, 1.0]", "1.0");
        t.row(1, 1, "none", "block by block", "1.0 [1.0, 1.0]", "1.0");
        t.row(1, 1, "spread,decoys=4,shuffle", "one range", rangePerMatch + " [6.8, 9.67]", "8.11");
        t.row(1, 1, "spread,decoys=4,shuffle", "block by block", byBlockPerMatch + " [9.0, 12.0]", "8.11");
        return t;
    }

    @Test
    void moreBlocksAndTheSameDistinctCountAreSaidWhenMeasured() {
        String r = FetchPolicyTables.repeats(FetchPolicyReport.TEXT, byBlock("8.11", "10.5"), new int[] {48, 48}, 6);
        assertTrue(
                r.startsWith("6-block syncs with decoys request more blocks per matched block than one range sync;"),
                r);
        assertTrue(
                r.contains("not a miscount: the distinct blocks are the range sync's, and requests for blocks below"),
                r);
    }

    @Test
    void fewerBlocksOrOtherDistinctCountsAreNotCalledMore() {
        String r = FetchPolicyTables.repeats(FetchPolicyReport.TEXT, byBlock("8.11", "8.0"), new int[] {40, 48}, 6);
        assertTrue(r.startsWith("6-block syncs with decoys do not all request more blocks per matched block"), r);
        assertTrue(
                r.contains("not a miscount: the distinct blocks are the range sync's for 40 of the 48 pairs only,"), r);
        assertFalse(r.startsWith("6-block syncs with decoys request more"), r);
    }
}
