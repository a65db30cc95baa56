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

    /** Without --node: the network named from the index's genesis, and the count of files it wrote is the count on disk. */
    @Test
    void exportOfTheDemoNamesItsNetworkAndCountsTheFilesItWrote() throws Exception {
        Path index = dir.resolve("index");
        assertEquals(
                0,
                ServerMain.run(
                        "--demo-blocks",
                        "20",
                        "--demo-block-interval",
                        "0",
                        "--exit-when-synced",
                        "--data-dir",
                        index.toString()));
        Path www = dir.resolve("www");
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = ServerMain.run(
                new java.io.PrintWriter(out, true),
                new java.io.PrintWriter(err, true),
                "export",
                "--data-dir",
                index.toString(),
                "--out",
                www.toString());
        assertEquals(0, code, err.toString());
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(www.resolve("index.json").toFile());
        assertEquals("regtest", json.path("network").asText(), "the network of the index's genesis block");
        long onDisk;
        try (java.util.stream.Stream<Path> files = Files.walk(www)) {
            onDisk = files.filter(Files::isRegularFile).count() - 1; // index.json aside
        }
        assertEquals(4, onDisk, "headers, filter headers, filters of range 0-14, and the checkpoints");
        assertEquals(true, out.toString().contains("(regtest) up to height 14"), out.toString());
        assertEquals(true, out.toString().contains(": 4 files written, 0 kept"), out.toString());
    }
}
