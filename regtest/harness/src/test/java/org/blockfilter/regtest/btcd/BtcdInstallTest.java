package org.blockfilter.regtest.btcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Installs btcd from scratch into an empty GOBIN (about a minute of compiling, so only when
 * asked: {@code BLOCKFILTER_TEST_INSTALL=true}; run with empty {@code GOMODCACHE}/{@code GOCACHE}
 * to time a fresh machine). Prints the install time.
 */
@EnabledIfEnvironmentVariable(named = "BLOCKFILTER_TEST_INSTALL", matches = "true")
class BtcdInstallTest {

    @Test
    void installsIntoAnEmptyGoBinAndFindsItThere(@TempDir Path gobin) throws Exception {
        Map<String, String> env = Map.of("GOBIN", gobin.toString(), "PATH", "");
        assertTrue(BtcdBinary.find(env).isEmpty(), "nothing installed yet");
        long start = System.nanoTime();
        Path installed = BtcdBinary.locateOrInstall(env);
        System.err.printf(
                "[install] go install %s took %.1f s%n", BtcdBinary.MODULE, (System.nanoTime() - start) / 1e9);
        assertEquals(gobin.resolve("btcd"), installed);
        assertTrue(Files.isExecutable(installed));
        assertEquals(installed, BtcdBinary.find(env).orElseThrow(), "the second lookup finds it without installing");
    }
}
