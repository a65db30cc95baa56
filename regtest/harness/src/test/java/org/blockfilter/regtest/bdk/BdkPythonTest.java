package org.blockfilter.regtest.bdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.blockfilter.regtest.RegtestNodeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class BdkPythonTest {
    @TempDir
    Path dir;

    @Test
    void runsAScriptWithBdkpythonImported() throws Exception {
        BdkPython bdk = BdkTestSupport.pythonOrSkip();
        Path script = dir.resolve("version.py");
        Files.writeString(script, "import sys, bdkpython as bdk\n" + "print(bdk.Network.REGTEST, sys.argv[1])\n");

        BdkPython.Result r = bdk.run(script, List.of("hello"), Duration.ofSeconds(60));

        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("Network.REGTEST hello", r.stdout().strip());
    }

    @Test
    void aBdkPythonThatIsNotAnInterpreterIsAnErrorNotAFallback() {
        RegtestNodeException e = assertThrows(
                RegtestNodeException.class,
                () -> BdkPython.locateOrInstall(dir.resolve("venv"), Map.of("BDK_PYTHON", "/nonexistent/python")));
        assertTrue(e.getMessage().contains("BDK_PYTHON=/nonexistent/python"), e.getMessage());
    }

    @Test
    void unavailableBdkFailsUnderCiAndSkipsOtherwise() {
        Map<String, String> broken = Map.of("BDK_PYTHON", "/nonexistent/python");
        assertThrows(TestAbortedException.class, () -> BdkTestSupport.pythonOrSkip(broken));
        for (String required : List.of("CI", "BLOCKFILTER_REQUIRE_BTCD", "BLOCKFILTER_REQUIRE_BDK")) {
            Map<String, String> env = Map.of("BDK_PYTHON", "/nonexistent/python", required, "true");
            assertThrows(AssertionError.class, () -> BdkTestSupport.pythonOrSkip(env), required);
        }
    }
}
