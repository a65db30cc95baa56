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

/** The whole pipeline in --quick mode: every experiment writes CSV, PNG and reports; a fixed seed gives the same CSVs. */
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

    @Test
    void quickRunOfAllExperimentsWritesCsvPngAndReports(@TempDir Path out) throws IOException {
        System.setProperty("java.awt.headless", "true");
        runQuick(out, 7, "all");
        for (String exp : List.of(
                "exp1-single-filter",
                "exp2-multiple-filters",
                "exp3-pubkey-and-hash",
                "exp4-fresh-wallet",
                "exp5-bip158",
                "exp6-bloom-theory",
                "exp7-filter-family",
                "exp8-fetch-policy")) {
            Path dir = out.resolve(exp);
            assertTrue(Files.isDirectory(dir), exp);
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
            assertTrue(md.contains(".png)"), exp + " markdown links its plots");
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
        assertTrue(Files.readString(out.resolve("exp6-bloom-theory/exp6_worked_example.csv"))
                .contains("8,8,15,3,false,true,FALSE POSITIVE"));
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
