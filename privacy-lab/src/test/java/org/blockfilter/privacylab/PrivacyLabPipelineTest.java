package org.blockfilter.privacylab;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committed results are in shape; the pipeline in --quick mode gives the same CSVs for a fixed seed. */
class PrivacyLabPipelineTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    private static void runQuick(Path out, long seed, String... experiments) {
        List<String> args = new java.util.ArrayList<>(List.of(experiments));
        args.addAll(List.of("--quick", "--threads", "2", "--seed", Long.toString(seed), "--out", out.toString()));
        PrivacyLab.run(
                PrivacyLab.parse(args.toArray(new String[0])),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    private static List<Path> files(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
        }
    }

    /** The experiments' output directories, as run.sh writes them. */
    private static final List<String> EXPERIMENT_DIRS = List.of(
            "exp1-single-filter",
            "exp2-multiple-filters",
            "exp3-pubkey-and-hash",
            "exp4-fresh-wallet",
            "exp5-bip158",
            "exp6-bloom-theory",
            "exp7-filter-family",
            "exp8-fetch-policy");

    /**
     * The committed results (what {@code privacy-lab/run.sh all --seed 2014 --out privacy-lab/results} writes in full
     * mode) have every experiment's CSVs, plots and reports in shape, and the index links each report. Checks the
     * files as committed instead of running the experiments again to get new ones (that took minutes of CI time);
     * the determinism test below still runs experiments through the same entry point.
     */
    @Test
    void committedResultsHaveEveryExperimentsCsvPngAndReports() throws IOException {
        Path results = Path.of("results");
        String index = Files.readString(results.resolve("README.md"));
        for (String exp : EXPERIMENT_DIRS) {
            Path dir = results.resolve(exp);
            assertTrue(Files.isDirectory(dir), exp);
            assertTrue(index.contains("(" + exp + "/report.md)"), "the index links " + exp);
            assertTrue(!files(dir, ".csv").isEmpty(), exp + " csv");
            List<Path> pngs = files(dir, ".png");
            assertTrue(!pngs.isEmpty(), exp + " png");
            for (Path png : pngs) {
                byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 4);
                assertArrayEquals(PNG_MAGIC, head, png.toString());
            }
            String md = Files.readString(dir.resolve("report.md"));
            String html = Files.readString(dir.resolve("report.html"));
            assertTrue(md.startsWith("# Experiment"), exp);
            assertTrue(!md.contains("QUICK mode"), exp + " is committed in full mode");
            assertTrue(md.contains(".png)"), exp + " markdown links its plots");
            java.util.regex.Matcher link = java.util.regex.Pattern.compile("\\]\\(([^)#:]+\\.(?:png|csv))\\)")
                    .matcher(md);
            while (link.find()) {
                assertTrue(Files.exists(dir.resolve(link.group(1))), exp + " links a missing " + link.group(1));
            }
            assertTrue(html.contains("data:image/png;base64,"), exp + " html embeds its plots");
            for (Path csv : files(dir, ".csv")) {
                List<String> lines = Files.readAllLines(csv);
                assertTrue(lines.size() >= 2, csv + " has a header and rows");
                int cols = columns(lines.get(0));
                for (String l : lines) {
                    assertEquals(cols, columns(l), csv + ": " + l);
                }
            }
        }
        assertTrue(Files.readString(results.resolve("exp6-bloom-theory/exp6_worked_example.csv"))
                .contains("8,8,15,3,false,true,FALSE POSITIVE"));
    }

    /**
     * Experiments 2, 3, 6 and 7 run end to end through {@link PrivacyLab#run} (no other test runs their reports; exp1
     * and exp4 run in the determinism test, exp5 in MainnetLikeChainTest, exp8's pieces in FetchPolicyExperimentTest
     * and FetchPolicyReportTest): each completes in quick mode and writes its report and CSVs.
     */
    @Test
    void experimentsRunNowhereElseCompleteInQuickMode(@TempDir Path out) throws IOException {
        System.setProperty("java.awt.headless", "true");
        runQuick(out, 7, "exp2", "exp3", "exp6", "exp7");
        for (String exp :
                List.of("exp2-multiple-filters", "exp3-pubkey-and-hash", "exp6-bloom-theory", "exp7-filter-family")) {
            assertTrue(Files.readString(out.resolve(exp).resolve("report.md")).startsWith("# Experiment"), exp);
            assertTrue(!files(out.resolve(exp), ".csv").isEmpty(), exp + " csv");
        }
        assertTrue(Files.readString(out.resolve("README.md")).contains("QUICK mode"));
    }

    /** Fields in an RFC 4180 line (commas inside quotes do not separate). */
    private static int columns(String line) {
        int n = 1;
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                n++;
            }
        }
        return n;
    }

    @Test
    void sameSeedGivesIdenticalCsvsAndAnotherSeedDoesNot(@TempDir Path out) throws IOException {
        System.setProperty("java.awt.headless", "true");
        runQuick(out.resolve("a"), 11, "exp1", "exp4");
        runQuick(out.resolve("b"), 11, "exp1", "exp4");
        runQuick(out.resolve("c"), 12, "exp1");
        List<Path> a = files(out.resolve("a"), ".csv");
        List<Path> b = files(out.resolve("b"), ".csv");
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(
                    Files.readString(a.get(i)),
                    Files.readString(b.get(i)),
                    a.get(i).toString());
        }
        assertTrue(!Files.readString(out.resolve("a/exp1-single-filter/exp1_raw.csv"))
                .equals(Files.readString(out.resolve("c/exp1-single-filter/exp1_raw.csv"))));
    }

    @Test
    void rejectsUnknownExperimentAndBadNumbers() {
        assertThrows(IllegalArgumentException.class, () -> PrivacyLab.parse(new String[] {"exp9"}));
        assertThrows(IllegalArgumentException.class, () -> PrivacyLab.parse(new String[] {"--seed", "x"}));
        assertThrows(IllegalArgumentException.class, () -> PrivacyLab.parse(new String[] {"--out"}));
        assertEquals(
                List.of("exp1", "exp2", "exp3", "exp4", "exp5", "exp6", "exp7", "exp8"),
                PrivacyLab.parse(new String[0]).experiments());
    }

    @Test
    void fullIsTheDefaultModeAndTheLastOfQuickAndFullWins() {
        assertEquals(false, PrivacyLab.parse(new String[0]).quick());
        assertEquals(false, PrivacyLab.parse(new String[] {"--quick", "--full"}).quick());
        assertEquals(true, PrivacyLab.parse(new String[] {"--full", "--quick"}).quick());
    }
}
