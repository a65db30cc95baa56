package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;

/**
 * Rewrites experiment 8's summary, plots and report from its committed raw, setup and BIP 37 CSVs without re-running
 * the syncs (for a change of the wallet's default policy, which moves the marked default but not the raw rows):
 * {@code Exp8Rerender OUT SEED}. Not a test.
 */
public final class Exp8Rerender {
    private Exp8Rerender() {}

    public static void main(String[] args) {
        Lab lab = new Lab(Long.parseLong(args[1]), false, Path.of(args[0]), 2, System.err);
        FetchPolicyOutputs.rerender(lab);
    }
}
