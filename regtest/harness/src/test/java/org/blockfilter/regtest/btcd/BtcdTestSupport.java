package org.blockfilter.regtest.btcd;

import java.nio.file.Path;
import java.util.Map;
import org.blockfilter.regtest.RegtestNodeException;
import org.junit.jupiter.api.Assumptions;

/**
 * The skip-or-fail policy of tests that need btcd: find or install the binary; when that is
 * impossible, fail if the environment demands btcd ({@code CI=true} or
 * {@code BLOCKFILTER_REQUIRE_BTCD=true}) and skip with the reason otherwise.
 */
public final class BtcdTestSupport {
    private BtcdTestSupport() {}

    public static Path binaryOrSkip() {
        return binaryOrSkip(System.getenv());
    }

    static Path binaryOrSkip(Map<String, String> env) {
        try {
            return BtcdBinary.locateOrInstall(env);
        } catch (RegtestNodeException e) {
            if (btcdRequired(env)) {
                throw new AssertionError(
                        "btcd is required here (CI=true or BLOCKFILTER_REQUIRE_BTCD=true) but unavailable: "
                                + e.getMessage(),
                        e);
            }
            Assumptions.abort("btcd unavailable, test skipped (set BLOCKFILTER_REQUIRE_BTCD=true to fail instead): "
                    + e.getMessage());
            throw new IllegalStateException("unreachable");
        }
    }

    static boolean btcdRequired(Map<String, String> env) {
        return "true".equalsIgnoreCase(env.getOrDefault("CI", ""))
                || "true".equalsIgnoreCase(env.getOrDefault("BLOCKFILTER_REQUIRE_BTCD", ""));
    }
}
