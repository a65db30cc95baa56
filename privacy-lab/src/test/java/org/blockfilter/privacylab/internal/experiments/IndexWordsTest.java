package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The results index says what experiment 1's P_h table in the output shows about ours against the paper's model. */
class IndexWordsTest {
    private static final Template.Sections INDEX = Template.load("index.txt");

    private static void table(Path dir, String... oursAndModel) {
        Csv ph = new Csv(PaperComparison.PH_COLUMNS);
        int[] ns = PaperComparison.PAPER_NS;
        for (int i = 0; i < ns.length; i++) {
            String ours = oursAndModel[2 * i];
            String model = oursAndModel[2 * i + 1];
            ph.row(ns[i], ns[i], "", model, ours, ours, ours, 3, "1.0", "1.0", "1.0", 1, "0.1", "0.1", model);
        }
        ph.write(dir.resolve("exp1_paper_ph.csv"));
    }

    @Test
    void theModelReproducesThePrintedValuesAndOursIsReadFromTheTable(@TempDir Path dir) {
        assertEquals(
                "not in this output",
                SingleFilterExperiment.indexWords(INDEX, dir).get("ours"));
        assertEquals(
                "which reproduces both printed values found (0.99 at N = 10, almost 0.80 below 15 addresses)",
                SingleFilterExperiment.indexWords(INDEX, dir).get("paperModel"));
        table(dir, "1.0", "1.0", "0.997", "0.99", "0.936", "0.795", "0.612", "0.186");
        assertEquals(
                "higher by Jensen's inequality at N = 10, 15, 20, equal at three significant digits at N = 5",
                SingleFilterExperiment.indexWords(INDEX, dir).get("ours"));
        table(dir, "0.9", "0.8", "0.997", "0.99", "0.936", "0.795", "0.612", "0.186");
        assertEquals(
                "higher by Jensen's inequality",
                SingleFilterExperiment.indexWords(INDEX, dir).get("ours"));
        table(dir, "1.0", "1.0", "1.0", "1.0", "1.0", "1.0", "1.0", "1.0");
        assertEquals(
                "equal to the model at three significant digits at every N in this output",
                SingleFilterExperiment.indexWords(INDEX, dir).get("ours"));
        table(dir, "0.9", "0.95", "0.997", "0.99", "0.5", "0.795", "0.612", "0.186");
        assertEquals(
                "lower than the model at N = 5, 15 in this output",
                SingleFilterExperiment.indexWords(INDEX, dir).get("ours"));
    }
}
