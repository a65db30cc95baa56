package org.blockfilter.privacylab.internal;

import java.nio.file.Path;

/**
 * Rewrites experiment 8's summary, plots and report from its committed {@code exp8_raw.csv} without re-running the
 * 2,700 syncs (used once, when the wallet's default policy changed after the full run; see docs/benchmarks.md):
 * {@code Exp8Rerender OUT SEED BUILD_SECONDS SYNC_SECONDS}. Not a test.
 */
public final class Exp8Rerender {
    private Exp8Rerender() {}

    public static void main(String[] args) {
        Lab lab = new Lab(Long.parseLong(args[1]), false, Path.of(args[0]), 2, System.err);
        FetchPolicyExperiment.rerender(lab, Double.parseDouble(args[2]), Double.parseDouble(args[3]));
    }
}
