package org.blockfilter.privacylab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code privacy-lab/run.sh --help} answers at once with its usage and exit status 0, before any build. The script
 * runs from a copy whose {@code ../mvnw} is a stub that leaves a mark and fails, so a build would show.
 */
class RunScriptTest {
    private record Run(int exit, String out) {}

    private static Path copyWithStubMaven(Path root) throws IOException {
        Path script = root.resolve("privacy-lab/run.sh");
        Files.createDirectories(script.getParent());
        Files.copy(Path.of("run.sh"), script);
        Path mvnw = root.resolve("mvnw");
        Files.writeString(mvnw, "#!/usr/bin/env bash\ntouch \"$(dirname \"$0\")/built\"\nexit 1\n");
        Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    private static Run run(Path script, String... args) throws IOException, InterruptedException {
        String[] cmd = new String[args.length + 2];
        cmd[0] = "bash";
        cmd[1] = script.toString();
        System.arraycopy(args, 0, cmd, 2, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        // Generous: the script only prints; the bound is there so a hung script fails the test.
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "run.sh did not finish");
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void helpPrintsUsageAndExitsZeroWithoutBuilding(@TempDir Path root) throws Exception {
        Path script = copyWithStubMaven(root);
        for (String flag : new String[] {"--help", "-h"}) {
            Run r = run(script, "exp1", flag);
            assertEquals(0, r.exit(), r.out());
            assertTrue(r.out().startsWith("usage: privacy-lab/run.sh"), r.out());
            assertTrue(r.out().contains("--quick"), r.out());
            assertFalse(Files.exists(root.resolve("built")), "--help started the build");
        }
    }

    @Test
    void withoutHelpTheScriptBuildsFirst(@TempDir Path root) throws Exception {
        Path script = copyWithStubMaven(root);
        Run r = run(script, "exp1", "--quick");
        assertNotEquals(0, r.exit(), r.out());
        assertTrue(Files.exists(root.resolve("built")), "the stub build was not reached: " + r.out());
    }
}
