package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.blockfilter.privacylab.internal.report.Csv;
import org.junit.jupiter.api.Test;

/** The report's change-linking sentence sums counts over chains and weights P_h(1) by wallets. */
class ChangeLinkingCheckTest {
    @Test
    void sumsOverChainsAndWeightsMeansByWallets() {
        Csv t = new Csv(ChangeLinkingCheck.HEADER);
        // chain 0: 10 links, 2 right; chain 1: 30 links, 6 right -> precision 8/40 = 0.2
        t.row(0, "no-reuse", 100, 10, 2, 4, 5, 1, 1.0, 1.0);
        // wallets 1 and 3: graph (1 x 1.0 + 3 x 0.2) / 4 = 0.4, change (1 + 3 x 0.6) / 4 = 0.7
        t.row(1, "no-reuse", 300, 30, 6, 4, 11, 3, 0.2, 0.6);
        String s = ChangeLinkingCheck.text(t);
        assertTrue(s.contains("of 400 transactions the heuristic named a change output in 40, 8 of them right"), s);
        assertTrue(s.contains("(precision 0.2)"), s);
        // wallet links 8, 8 right: precision 1; found 8 of 16 fresh-change transactions
        assertTrue(s.contains("8 links, precision 1.0"), s);
        assertTrue(s.contains("(recall 0.5)"), s);
        assertTrue(s.contains("4 wallets: P_h(1) 0.4 for the transaction graph, 0.7 with change linking"), s);
    }
}
