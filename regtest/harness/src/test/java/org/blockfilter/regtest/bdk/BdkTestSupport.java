package org.blockfilter.regtest.bdk;

import java.util.Map;
import org.blockfilter.regtest.RegtestNodeException;
import org.junit.jupiter.api.Assumptions;

/**
 * The skip-or-fail policy of tests that need BDK, the same as for btcd: install bdkpython into
 * the repository's {@code target/bdk-venv}; when that is impossible (no python3, no venv module, no
 * PyPI), fail if the environment demands it ({@code CI=true}, {@code BLOCKFILTER_REQUIRE_BTCD=true}
 * or {@code BLOCKFILTER_REQUIRE_BDK=true}) and skip with the reason otherwise.
 */
public final class BdkTestSupport {
    private BdkTestSupport() {}

    public static BdkPython pythonOrSkip() {
        return pythonOrSkip(System.getenv());
    }

    public static BdkPython pythonOrSkip(Map<String, String> env) {
        try {
            return BdkPython.locateOrInstall(BdkPython.defaultVenv(), env);
        } catch (RegtestNodeException e) {
            if (bdkRequired(env)) {
                throw new AssertionError(
                        "bdkpython is required here (CI=true, BLOCKFILTER_REQUIRE_BTCD=true or"
                                + " BLOCKFILTER_REQUIRE_BDK=true) but unavailable: " + e.getMessage(),
                        e);
            }
            Assumptions.abort("bdkpython unavailable, test skipped (set BLOCKFILTER_REQUIRE_BDK=true to fail"
                    + " instead): " + e.getMessage());
            throw new IllegalStateException("unreachable");
        }
    }

    static boolean bdkRequired(Map<String, String> env) {
        return "true".equalsIgnoreCase(env.getOrDefault("CI", ""))
                || "true".equalsIgnoreCase(env.getOrDefault("BLOCKFILTER_REQUIRE_BTCD", ""))
                || "true".equalsIgnoreCase(env.getOrDefault("BLOCKFILTER_REQUIRE_BDK", ""));
    }
}
