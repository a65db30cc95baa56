package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Joins experiment 8's outputs from processes that each ran some chain seeds (system property {@code exp8.chains})
 * into one full-mode output directory: {@code Exp8Merge OUT SEED THREADS PART...}. Not a test.
 */
public final class Exp8Merge {
    private Exp8Merge() {}

    public static void main(String[] args) {
        Lab lab = new Lab(Long.parseLong(args[1]), false, Path.of(args[0]), Integer.parseInt(args[2]), System.err);
        FetchPolicyOutputs.merge(
                lab, Arrays.stream(args, 3, args.length).map(Path::of).toList());
    }
}
