package org.blockfilter.server.export;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.concurrent.TimeUnit;
import org.blockfilter.filters.wire.CompactSize;
import org.blockfilter.filters.wire.WireWriter;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;
import org.blockfilter.server.store.TestBlocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A range file of 1000 filters is ~20 MB at mainnet sizes: the export streams each from one
 * snapshot cursor instead of building the range and then its bytes. Exports a 1000-block index
 * of {@value #FILTER_BYTES}-byte filters (~64 MiB in the filters file) in a child JVM with
 * {@value #HEAP}, less than one copy of the range.
 */
class StaticExportStreamingTest {
    private static final String HEAP = "-Xmx32m";
    private static final int BLOCKS = 1000;
    private static final int FILTER_BYTES = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void aFullRangeOfLargeFiltersExportsOnAHeapSmallerThanTheRange() throws Exception {
        Path index = dir.resolve("index");
        MessageDigest expectedFilters = MessageDigest.getInstance("SHA-256");
        long expectedBytes = 0;
        try (IndexStore store = IndexStore.open(index)) {
            for (int h = 0; h < BLOCKS; h++) {
                StoredBlock b = TestBlocks.extend(store, 0, FILTER_BYTES);
                byte[] piece = new WireWriter()
                        .hash(b.blockHash())
                        .varBytes(b.filter())
                        .toByteArray();
                expectedFilters.update(piece);
                expectedBytes += piece.length;
            }
        }
        assertEquals((long) BLOCKS * (32 + CompactSize.size(FILTER_BYTES) + FILTER_BYTES), expectedBytes);

        Path out = dir.resolve("www");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        HEAP,
                        "-cp",
                        System.getProperty("java.class.path"),
                        ExportProcess.class.getName(),
                        index.toString(),
                        out.toString())
                .redirectErrorStream(true)
                .start();
        String output;
        try (InputStream in = child.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            if (!child.waitFor(120, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("DONE"), output);

        JsonNode filters = null;
        for (JsonNode f : new ObjectMapper()
                .readTree(out.resolve(StaticExport.INDEX).toFile())
                .path("files")) {
            if (f.path("kind").asText().equals("filters")) {
                filters = f;
            }
        }
        assertTrue(filters != null, "index.json lists no filters file");
        Path file = out.resolve(filters.path("path").asText());
        assertEquals(expectedBytes, Files.size(file));
        assertEquals(expectedBytes, filters.path("bytes").asLong());
        byte[] expectedSha = expectedFilters.digest();
        assertArrayEquals(expectedSha, digest(file), "the filters file holds other bytes");
        assertEquals(
                java.util.HexFormat.of().formatHex(expectedSha),
                filters.path("sha256").asText());
    }

    private static byte[] digest(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) >= 0) {
                d.update(buf, 0, n);
            }
            return d.digest();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
