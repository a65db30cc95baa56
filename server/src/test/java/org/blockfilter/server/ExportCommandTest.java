package org.blockfilter.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportCommandTest {
    @TempDir
    Path dir;

    @Test
    void badOptionsExitWithTwo() {
        String data = dir.toString();
        String out = dir.resolve("www").toString();
        assertEquals(
                2, ServerMain.run("export", "--data-dir", data, "--out", out, "--blocks"), "--blocks needs --node");
        assertEquals(2, ServerMain.run("export", "--data-dir", data, "--out", out, "--safety-depth", "-1"));
        assertEquals(
                2, ServerMain.run("export", "--data-dir", dir.resolve("none").toString(), "--out", out));
        assertEquals(2, ServerMain.run("export", "--out", out), "--data-dir is required");
    }

    @Test
    void aDirectoryWithoutAnIndexExitsWithOneAndWritesNothing() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertEquals(
                1,
                ServerMain.run(
                        "export",
                        "--data-dir",
                        empty.toString(),
                        "--out",
                        dir.resolve("www").toString()));
        assertEquals(false, Files.exists(dir.resolve("www").resolve("index.json")));
    }
}
