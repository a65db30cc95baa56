package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Stats;

/**
 * exp8's outputs from its raw rows: the summaries, plots and report that {@link FetchPolicyExperiment#run} and {@link
 * FetchPolicyExperiment#merge} write after the syncs, and {@link #rerender} writes again from the committed raw files.
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
}
