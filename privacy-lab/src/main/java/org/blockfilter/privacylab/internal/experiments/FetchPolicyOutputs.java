package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Stats;

/**
 * exp8's outputs from its raw rows: the summaries, plots and report that {@link FetchPolicyExperiment#run} and {@link
 * #merge} write after the syncs, and {@link #rerender} writes again from the committed raw files.
 * Stateless.
 */
final class FetchPolicyOutputs {
    private FetchPolicyOutputs() {}

    /** Per wallet size: wallets, mean P_h(1) and mean posterior entropy of today's HD BIP 37 wallet, from its raw rows. */
    static Csv bip37Summary(ProfileShapedChain.Shape shape, Csv raw) {
        Csv out = new Csv("N", "wallets", "ph1", "entropy_bits");
        for (int n : shape.walletSizes()) {
            List<Double> ph = new ArrayList<>();
            List<Double> bits = new ArrayList<>();
            for (List<String> r : raw.rows()) {
                if (Integer.parseInt(r.get(2)) == n) {
                    ph.add(Double.parseDouble(r.get(3)));
                    bits.add(Double.parseDouble(r.get(4)));
                }
            }
            out.row(n, ph.size(), Stats.sig(Stats.mean(ph), 3), Stats.sig(Stats.mean(bits), 3));
        }
        return out;
    }

    /** Summary, plots and report from the raw rows. */
    static void report(
            Lab lab,
            Path dir,
            ProfileShapedChain.Shape shape,
            FetchPolicySummary.Setup setup,
            List<FetchPolicyExperiment.Setting> settings,
            Csv raw,
            Csv bip37Raw,
            Csv change) {
        Csv main = FetchPolicyTables.ofLongChain(raw, false);
        Csv summary = FetchPolicySummary.summarise(
                lab, FetchPolicyExperiment.ofModel(main, ProfileShapedChain.WalletModel.REUSE));
        summary.write(dir.resolve("exp8_summary.csv"));
        Csv noReuse = FetchPolicySummary.summarise(
                lab, FetchPolicyExperiment.ofModel(main, ProfileShapedChain.WalletModel.NO_REUSE));
        noReuse.write(dir.resolve(FetchPolicyExperiment.NO_REUSE_SUMMARY));
        Csv longSummary = FetchPolicyTables.longSummary(lab, raw);
        if (!longSummary.rows().isEmpty()) {
            longSummary.write(dir.resolve(FetchPolicyTables.LONG_SUMMARY));
        }
        Csv bip37 = bip37Summary(shape, bip37Raw);
        bip37.write(dir.resolve("exp8_bip37.csv"));
        List<String> plots = FetchPolicyPlots.plots(dir, shape.walletSizes(), summary);
        FetchPolicyReport.write(
                lab, dir, shape, setup, settings, summary, noReuse, longSummary, raw, bip37, change, plots);
    }

    /**
     * Rewrites summary, plots and report from the {@code exp8_raw.csv}, {@code exp8_setup.csv},
     * {@code exp8_bip37_raw.csv} and {@link FetchPolicyExperiment#CHANGE_FILE} in the output
     * directory without re-running the syncs (the raw rows do not depend on which policy is the default).
     */
    public static void rerender(Lab lab) {
        Path dir = lab.dir(FetchPolicyExperiment.DIR);
        Csv raw = FetchPolicySummary.read(dir.resolve("exp8_raw.csv"));
        FetchPolicySummary.Setup setup = FetchPolicySummary.Setup.read(dir.resolve("exp8_setup.csv"));
        Csv bip37 = FetchPolicySummary.read(dir.resolve("exp8_bip37_raw.csv"));
        Csv change = FetchPolicySummary.read(dir.resolve(FetchPolicyExperiment.CHANGE_FILE));
        report(
                lab,
                dir,
                FetchPolicyExperiment.shape(lab.quick()),
                setup,
                FetchPolicyExperiment.settings(),
                raw,
                bip37,
                change);
    }

    /**
     * Joins the outputs of processes that each ran some chain seeds ({@code exp8.chains}) into {@code lab}'s output
     * directory, as one run of all seeds writes them: raw rows in seed order, the setup's sizes averaged over seeds and
     * its costs summed over the parts, its wall time the longest part's (the parts run side by side), then the report.
     */
    public static void merge(Lab lab, List<Path> parts) {
        Path dir = lab.dir(FetchPolicyExperiment.DIR);
        Csv raw = new Csv(FetchPolicyExperiment.header().toArray(String[]::new));
        Csv bip37 = new Csv("chain", "wallet", "N", "ph1", "entropy_bits");
        Csv change = new Csv(ChangeLinkingCheck.HEADER);
        List<FetchPolicySummary.Setup> setups = new ArrayList<>();
        for (Path part : parts) {
            Path d = part.resolve(FetchPolicyExperiment.DIR);
            FetchPolicySummary.read(d.resolve("exp8_raw.csv")).rows().forEach(r -> raw.row(r.toArray()));
            FetchPolicySummary.read(d.resolve("exp8_bip37_raw.csv")).rows().forEach(r -> bip37.row(r.toArray()));
            FetchPolicySummary.read(d.resolve(FetchPolicyExperiment.CHANGE_FILE))
                    .rows()
                    .forEach(r -> change.row(r.toArray()));
            setups.add(FetchPolicySummary.Setup.read(d.resolve("exp8_setup.csv")));
        }
        FetchPolicySummary.Setup first = setups.get(0);
        int seeds = 0;
        int wallets = 0;
        int noReuseWallets = 0;
        int longWallets = 0;
        double elements = 0;
        double bytes = 0;
        double build = 0;
        double sync = 0;
        double wall = 0;
        for (FetchPolicySummary.Setup s : setups) {
            wall = Math.max(wall, s.wallSeconds());
            seeds += s.seeds();
            wallets += s.wallets();
            noReuseWallets += s.noReuseWallets();
            longWallets += s.longWallets();
            elements += s.elementsPerBlock() * s.seeds();
            bytes += s.rawBlockBytes() * s.seeds();
            build += s.buildSeconds();
            sync += s.syncSeconds();
        }
        FetchPolicySummary.Setup setup = new FetchPolicySummary.Setup(
                first.blocks(),
                seeds,
                wallets,
                noReuseWallets,
                first.longBlocks(),
                longWallets,
                elements / seeds,
                bytes / seeds,
                first.bytesPerElement(),
                build,
                sync,
                wall,
                first.threads(),
                parts.size(),
                first.processors(),
                setups.stream()
                        .mapToDouble(FetchPolicySummary.Setup::loadAverage)
                        .max()
                        .orElseThrow());
        raw.write(dir.resolve("exp8_raw.csv"));
        bip37.write(dir.resolve("exp8_bip37_raw.csv"));
        setup.write(dir.resolve("exp8_setup.csv"));
        change.write(dir.resolve(FetchPolicyExperiment.CHANGE_FILE));
        report(
                lab,
                dir,
                FetchPolicyExperiment.shape(lab.quick()),
                setup,
                FetchPolicyExperiment.settings(),
                raw,
                bip37,
                change);
    }
}
