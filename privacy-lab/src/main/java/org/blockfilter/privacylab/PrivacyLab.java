package org.blockfilter.privacylab;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.blockfilter.privacylab.internal.experiments.Bip158Experiment;
import org.blockfilter.privacylab.internal.experiments.FetchPolicyExperiment;
import org.blockfilter.privacylab.internal.experiments.FilterFamilyExperiment;
import org.blockfilter.privacylab.internal.experiments.FreshWalletExperiment;
import org.blockfilter.privacylab.internal.experiments.Lab;
import org.blockfilter.privacylab.internal.experiments.MultiFilterExperiment;
import org.blockfilter.privacylab.internal.experiments.PubKeyAndHashExperiment;
import org.blockfilter.privacylab.internal.experiments.SingleFilterExperiment;
import org.blockfilter.privacylab.internal.experiments.TheoryExperiment;
import org.blockfilter.privacylab.internal.report.Template;

/**
 * Command line for the privacy experiments (Gervais et al., ACSAC 2014, reproduced with bitcoinj's real filters).
 *
 * <pre>
 * PrivacyLab [exp1|exp2|exp3|exp4|exp5|exp6|exp7|exp8|all] [--out DIR] [--seed N] [--quick|--full] [--threads N]
 * </pre>
 *
 * Defaults: {@code all}, {@code --out privacy-lab-out}, seed 2014, full mode ({@code --full}, the last of
 * {@code --quick} and {@code --full} wins), all processors. Progress goes to
 * stderr. Exit status 2 on bad arguments. Experiment 5 (BIP 158) builds its own synthetic chain with the filters
 * module's real filters; experiment 8 runs the wallet module's real sync engine over it (privacy-lab may depend on
 * filters, wallet and the mainnet profile's API, never on server or the other regtest modules).
 */
public final class PrivacyLab {
    /** The experiments by name, in order. */
    public static final Map<String, Consumer<Lab>> EXPERIMENTS = experiments();

    private PrivacyLab() {}

    private static Map<String, Consumer<Lab>> experiments() {
        Map<String, Consumer<Lab>> m = new LinkedHashMap<>();
        m.put("exp1", SingleFilterExperiment::run);
        m.put("exp2", MultiFilterExperiment::run);
        m.put("exp3", PubKeyAndHashExperiment::run);
        m.put("exp4", FreshWalletExperiment::run);
        m.put("exp5", Bip158Experiment::run);
        m.put("exp6", TheoryExperiment::run);
        m.put("exp7", FilterFamilyExperiment::run);
        m.put("exp8", FetchPolicyExperiment::run);
        return m;
    }

    /** Parsed arguments. */
    record Options(List<String> experiments, Path out, long seed, boolean quick, int threads) {}

    static Options parse(String[] args) {
        List<String> exps = new ArrayList<>();
        Path out = Path.of("privacy-lab-out");
        long seed = 2014;
        boolean quick = false;
        int threads = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> quick = true;
                case "--full" -> quick = false;
                case "--out" -> out = Path.of(value(args, ++i, a));
                case "--seed" -> seed = number(value(args, ++i, a), a);
                case "--threads" -> threads = (int) Math.max(1, number(value(args, ++i, a), a));
                case "all" -> exps.addAll(EXPERIMENTS.keySet());
                default -> {
                    if (!EXPERIMENTS.containsKey(a)) {
                        throw new IllegalArgumentException(
                                "unknown argument '" + a + "'; experiments: " + EXPERIMENTS.keySet() + " or all");
                    }
                    exps.add(a);
                }
            }
        }
        if (exps.isEmpty()) {
            exps.addAll(EXPERIMENTS.keySet());
        }
        return new Options(List.copyOf(new java.util.LinkedHashSet<>(exps)), out, seed, quick, threads);
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }

    private static long number(String s, String flag) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " needs an integer, got '" + s + "'");
        }
    }

    /** Runs the experiments in {@code options}, writing under its output directory. */
    static void run(Options options, PrintStream log) {
        Lab lab = new Lab(options.seed(), options.quick(), options.out(), options.threads(), log);
        for (String e : options.experiments()) {
            long t0 = System.nanoTime();
            log.printf("== %s (%s mode, seed %d) ==%n", e, options.quick() ? "quick" : "full", options.seed());
            EXPERIMENTS.get(e).accept(lab);
            log.printf("== %s done in %.1f s ==%n", e, (System.nanoTime() - t0) / 1e9);
        }
        writeIndex(options);
    }

    /** {@code README.md} in the output directory: the regenerating command and a link to every report present. */
    private static void writeIndex(Options options) {
        Template.Sections text = Template.load("index.txt");
        StringBuilder index = new StringBuilder();
        index.append(text.get("header")
                        .render(Map.of(
                                "seed", options.seed(),
                                "quickFlag", options.quick() ? " --quick" : "",
                                "out", options.out(),
                                "mode",
                                        text.get(options.quick() ? "mode.quick" : "mode.full")
                                                .render())))
                .append('\n');
        for (Map.Entry<String, String> e : DIRS.entrySet()) {
            if (java.nio.file.Files.isDirectory(options.out().resolve(e.getValue()))) {
                index.append(text.get("report").render(Map.of("experiment", e.getKey(), "dir", e.getValue())))
                        .append('\n');
            }
        }
        index.append('\n')
                .append(text.get("questions")
                        .render(SingleFilterExperiment.indexWords(
                                text, options.out().resolve(DIRS.get("exp1")))))
                .append('\n');
        if (java.nio.file.Files.exists(options.out().resolve("exp5-bip158/exp5_sensitivity.csv"))) {
            index.append(text.get("questions.sensitivity").render()).append('\n');
        }
        try {
            java.nio.file.Files.createDirectories(options.out());
            java.nio.file.Files.writeString(options.out().resolve("README.md"), index.toString());
        } catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static final Map<String, String> DIRS = new java.util.TreeMap<>(Map.of(
            "exp1",
            "exp1-single-filter",
            "exp2",
            "exp2-multiple-filters",
            "exp3",
            "exp3-pubkey-and-hash",
            "exp4",
            "exp4-fresh-wallet",
            "exp5",
            "exp5-bip158",
            "exp6",
            "exp6-bloom-theory",
            "exp7",
            "exp7-filter-family",
            "exp8",
            "exp8-fetch-policy"));

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("privacy-lab: " + e.getMessage());
            System.err.println(
                    "usage: PrivacyLab [exp1|exp2|exp3|exp4|exp5|exp6|exp7|exp8|all] [--out DIR] [--seed N] [--quick|--full] [--threads N]");
            System.exit(2);
            return;
        }
        run(options, System.err);
    }
}
