package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;
import org.junit.jupiter.api.Test;

/** Experiment 4's reading names what the fresh wallets' numbers show, at any universe size. */
class FreshWalletExperimentTest {
    private static final Template.Sections TEXT = Template.load("exp4.txt");

    private static Csv summary(double y2014Fp, double hdFp, double todayFp, double hdBoth, double todayBoth) {
        Csv t = new Csv(FreshWalletExperiment.summaryColumns(33_000_000L, 60_000_000L));
        t.row("Y2014", 1, 1, 2, 102, 201, 10, 0.0005, 8.33e-20, 8.15e-20, 0.0, 2.75e-12, y2014Fp, 5e-12, 0.0, 2.3e-31);
        t.row(
                "HD_2014", 0, 270, 540, 640, 1265, 10, 0.0005, 1.46e-4, 1.49e-4, 1.5e-4, 4820.0, hdFp, 8770.0, 9000.0,
                hdBoth);
        t.row(
                "TODAY", 0, 540, 1080, 1180, 3534, 16, 1e-5, 3.66e-6, 3.45e-6, 3.42e-6, 121.0, todayFp, 219.0, 205.0,
                todayBoth);
        return t;
    }

    @Test
    void theFullRunsReadingIsChosenFromItsNumbers() {
        String r = FreshWalletExperiment.reading(
                TEXT, summary(0.0, 4960.0, 113.0, 0.71, 0.00044), 33_000_000L, 60_000_000L);
        assertTrue(r.contains("false positives among 33,000,000 addresses and its one address is exposed."), r);
        assertTrue(r.contains("hides among those (hundreds for today's wallet, thousands for 0.12's)"), r);
        assertTrue(
                r.endsWith(
                        "are 0.71 (0.12 HD) and 0.00044 (today) among 33,000,000 addresses: such an address stands out alone."),
                r);
    }

    @Test
    void aSmallUniversesReadingSaysWhatItMeasured() {
        String r = FreshWalletExperiment.reading(TEXT, summary(2.0, 30.0, 0.5, 1.4, 0.01), 200_000L, 400_000L);
        assertTrue(r.contains("false positives among 200,000 addresses among which its one address hides."), r);
        assertTrue(r.contains("hides among those (fewer than one for today's wallet, tens for 0.12's)"), r);
        assertTrue(
                r.endsWith("with one or more of them expected, such an address does not always stand out alone."), r);
        assertFalse(r.contains("stands out alone"), r);
    }

    @Test
    void magnitudesFollowTheDecade() {
        assertEquals("fewer than one", FreshWalletExperiment.magnitude(TEXT, 0.99));
        assertEquals("a few", FreshWalletExperiment.magnitude(TEXT, 1));
        assertEquals("tens", FreshWalletExperiment.magnitude(TEXT, 99));
        assertEquals("hundreds", FreshWalletExperiment.magnitude(TEXT, 100));
        assertEquals("thousands", FreshWalletExperiment.magnitude(TEXT, 9999));
        assertEquals("tens of thousands or more", FreshWalletExperiment.magnitude(TEXT, 10_000));
    }
}
