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
        StringBuilder index = new StringBuilder("# Privacy lab results\n\n");
        index.append("Regenerate with `privacy-lab/run.sh all --seed ")
                .append(options.seed())
                .append(options.quick() ? " --quick" : "")
                .append(" --out ")
                .append(options.out())
                .append("` from the repository root (one experiment: name it instead of `all`).\n\n")
                .append(
                        options.quick()
                                ? "**QUICK mode**: small universes and few clients; the numbers only show that the pipeline works.\n\n"
                                : "Full mode (the default, or `--full`): a 33M-address universe (60M too in experiment 4);"
                                        + " its run time on the project's 2-core machine is in docs/benchmarks.md."
                                        + " `--quick` runs every experiment in a few minutes on small universes; the tests run experiments"
                                        + " that way and check these committed files' shape without regenerating them.\n\n")
                .append("| experiment | report |\n| --- | --- |\n");
        for (Map.Entry<String, String> e : DIRS.entrySet()) {
            if (java.nio.file.Files.isDirectory(options.out().resolve(e.getValue()))) {
                index.append(String.format(
                        java.util.Locale.ROOT,
                        "| %s | [%s/report.md](%s/report.md) ([html](%s/report.html)) |%n",
                        e.getKey(),
                        e.getValue(),
                        e.getValue(),
                        e.getValue()));
            }
        }
        index.append("\n## What each experiment answers, and where it is shown\n\n")
                .append("| question | answered in | figure |\n| --- | --- | --- |\n")
                .append(
                        "| exp5's adversaries: as strong as a log of downloads allows | exp5: co-occurrence ranking, timing, intersection and union of two re-syncs, transaction graph; P_h(1) and P_h(N) with 95% CIs; a five-block test chain with hand-computed answers for every adversary | exp5-bip158/exp5_ph1_n*_peers*.png, first table of exp5's report |\n")
                .append(
                        "| exp5's chain: shaped like mainnet, with spends and reuse | exp5: the chain is drawn from the server's mainnet-profile samplers (`MainnetStatistics`, one definition for both; docs/mainnet-profile.md): transactions per block, inputs/outputs per transaction, change sent back and log-uniform reusers, the profile's spend-age law over a 10 M-output history; spends, multi-input transactions, every model assumption listed; what re-syncs leak measured by the intersection and union adversaries | exp5's Setup section (element counts), its summary table and its re-sync columns |\n")
                .append(
                        "| exp4: each wallet labelled as what it is | exp4: pre-HD row labelled as such, bitcoinj 0.12's HD first filter (lookahead 100 + 33 per branch), today's two chains named, pubkey-and-hash false positives | exp4-fresh-wallet/exp4_fp.png and its table |\n")
                .append(
                        "| exp5's BIP 37 rows: sized as bitcoinj sizes them | exp5: sized by bitcoinj's BloomFilter constructor, as in exp1 | exp5's 'BIP 37 on the same axes' table |\n")
                .append(
                        "| the paper side by side | exp1: P_h(j), j = 1..N, N = 5, 10, 15, 20: the paper's model (S_F = P_f x U plugged in, U the addresses tested, bitcoinj's integer sizing), which reproduces both printed values found (0.99 at N = 10, almost 0.80 below 15 addresses), beside ours (the expectation over a Poisson count of false positives, higher by Jensen's inequality); the printed numbers (via Karame and Androulaki's book, which restates the paper) in their own table with a generated sentence on each difference; the paper's countermeasures measured | exp1-single-filter/exp1_paper_ph.png, exp1_paper_ph.csv, exp1_paper_printed.csv, exp1_countermeasures.csv |\n")
                .append(
                        "| the wallet acts on it: a block-fetch privacy policy | exp8: the real wallet's sync engine over experiment 5's chain at mainnet's statistics and block size, several chain seeds, whole-range and block-by-block syncs, no-reuse wallets beside the reuse wallets, under the policy grid (lone decoys `decoys=K`, common-input cluster decoys `clusters=K`, and a Tor circuit per block), against source 0's exp5 adversaries, a policy-aware adversary, Sybils holding several sources, a v1 network observer and a BIP 324 size observer, and the maximum over all of them per wallet; Wilson intervals widened by the chain-seed design effect, posterior entropies, a comparison with Electrum servers and today's BIP 37 wallet; the rule that chose the default written before the run | exp8-fetch-policy/exp8_summary.csv, exp8_frontier_n*_sources*.png |\n")
                .append(
                        "| statistics and plots | 50 clients per exp1 cell (1 scanned against the universe), 300, 100 and 20 wallets per exp5 cell for N = 1, 10 and 100, 95% CIs, 3 significant digits, zeros marked on log axes, legends below plots, decoy levels named | every plot |\n")
                .append(
                        "| BIP 37 adversaries; what two re-syncs leak | exp2: the paper's element-count estimate n_hat = -(m/k) ln(1 - X/m) (accuracy, the address count it gives, its effect on P_h), intersection over 100-500 wallets per setting with 95% CIs, the paper's K_j with filters ordered by n_hat; exp5 measures both readings of two re-syncs for a 1-of-4 observer: the intersection of the two download sets and their union | exp2-multiple-filters/exp2_element_estimate.png, exp2_intersection_ci.png, exp2_paper_kj.csv; exp5's summary table (its intersection and union adversaries) and reading |\n")
                .append(
                        "| the seed documents' results | exp6: Bloom's 1970 hyphenation table (allowed error 1/2 .. 1/32: hash area and disk accesses avoided, formula and a measured filter beside the seed's values) and the counting Bloom filter's 4-bit counter overflow probability (Fan et al.'s bound beside the exact tail) | exp6-bloom-theory/exp6_bloom1970.csv, exp6_counting_overflow.csv |\n")
                .append(
                        "| the seeds' filter family, measured | exp7: space and false-positive rate at 1e-2..1e-6 and BIP 158's 1/M for Bloom, blocked and counting Bloom, cuckoo, cuckoo+, xor, xor+/fuse (FastFilter 1.0.2), quotient and standard ribbon filters (written here, no kept Java library offers them; tested against Bender et al.'s and Dillinger and Walzer's formulas), beside GCS and the bound log2(1/eps); the seeds' rules (0.6185^(m/n), ~4.8 bits per decade) checked and bits per decade fitted per family | exp7-filter-family/exp7_space_vs_rate.png, exp7_filters.csv, exp7_bloom_rules.csv |\n");
        if (java.nio.file.Files.exists(options.out().resolve("exp5-bip158/exp5_sensitivity.csv"))) {
            index.append(
                    "| exp5's headline under its assumptions | exp5: P_h(1) of a one-address wallet (observer of every download, no decoys) with one assumption moved at a time: a BIP 84 wallet that never reuses an address beside the reuse model, the share of young spends, synced ranges of months | exp5-bip158/exp5_sensitivity.csv, exp5's sensitivity section |\n");
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
