package org.blockfilter.regtest.scenario;

import java.util.List;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdBinary;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.embedded.EmbeddedNode;

/**
 * Times building the 300-block standard scenario on btcd and on the embedded node, for
 * docs/benchmarks.md. Measures, asserts no speed. A benchmark main, not a test:
 * {@code ./mvnw -B -q -pl regtest/harness -am test -DskipTests -Dbench=harness}
 * ({@code -Dbench.args=embedded} for one backend).
 *
 * <p>Arguments: a comma-separated list of backends ({@code btcd}, {@code embedded}), default both.
 */
public final class ScenarioBuildBenchmark {
    private static final ScenarioSpec SPEC = ScenarioSpec.standard(20_261_130L);

    private ScenarioBuildBenchmark() {}

    public static void main(String[] args) {
        List<String> backends = args.length > 0 ? List.of(args[0].split(",")) : List.of("btcd", "embedded");
        for (String backend : backends) {
            try (RegtestNode node = start(backend)) {
                long start = System.nanoTime();
                GroundTruth truth = ScenarioRunner.run(node, SPEC, line -> {});
                if (truth.tipHeight() < SPEC.blocks()) {
                    throw new IllegalStateException(
                            "scenario stopped at height " + truth.tipHeight() + " of " + SPEC.blocks());
                }
                System.out.printf(
                        "[time] %s: %d blocks, %d scenario transactions in %.1f s%n",
                        node.name(), truth.tipHeight(), truth.transactions().size(), (System.nanoTime() - start) / 1e9);
            }
        }
    }

    private static RegtestNode start(String backend) {
        return switch (backend) {
            case "btcd" ->
                BtcdNode.start(
                        BtcdOptions.of(SPEC.miningAddress()).withBinary(BtcdBinary.locateOrInstall(System.getenv())));
            case "embedded" ->
                EmbeddedNode.start(EmbeddedNode.Config.defaults().withMiningAddress(SPEC.miningAddress()));
            default -> throw new IllegalArgumentException("unknown backend " + backend + " (btcd, embedded)");
        };
    }
}
