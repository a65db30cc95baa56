package org.blockfilter.server.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.TestBlocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaticExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static void extend(IndexStore store, int count, int nonce) {
        TestBlocks.extend(store, count, nonce, 3);
    }

    private JsonNode index(Path out) throws Exception {
        return JSON.readTree(out.resolve(StaticExport.INDEX).toFile());
    }

    @Test
    void exportsOnlyBuriedRangesAndReExportWritesOnlyWhatChanged() throws Exception {
        Path out = dir.resolve("www");
        try (IndexStore store = IndexStore.open(dir.resolve("index"))) {
            extend(store, 2_506, 0); // tip 2505
            StaticExport.Result first = StaticExport.export(store, out, 6, "regtest", null);
            assertEquals(2_499, first.tipHeight());
            assertEquals(store.hashAt(2_499).orElseThrow(), first.tipHash());
            assertEquals(
                    10, first.filesWritten(), "three ranges x headers, filter headers, filters, and the checkpoints");
            try (java.util.stream.Stream<Path> files = Files.walk(out)) {
                assertEquals(
                        first.filesWritten() + 1,
                        files.filter(Files::isRegularFile).count(),
                        "the count is what is on disk, index.json aside");
            }
            JsonNode idx = index(out);
            assertEquals(2_499, idx.path("tipHeight").asInt());
            assertEquals(2, idx.path("checkpoints").path("count").asInt());
            for (JsonNode f : idx.path("files")) {
                byte[] content = Files.readAllBytes(out.resolve(f.path("path").asText()));
                assertEquals(f.path("sha256").asText(), StaticExport.sha256(content), "content-addressed");
                assertTrue(f.path("path").asText().contains(f.path("sha256").asText()));
            }

            StaticExport.Result same = StaticExport.export(store, out, 6, "regtest", null);
            assertEquals(0, same.filesWritten());
            assertEquals(10, same.filesKept());

            extend(store, 10, 0);
            StaticExport.Result grown = StaticExport.export(store, out, 6, "regtest", null);
            assertEquals(2_509, grown.tipHeight());
            assertEquals(4, grown.filesWritten(), "only the new last range and the checkpoints up to the new tip");
            assertEquals(6, grown.filesKept());
        }
    }

    @Test
    void aReorgBelowTheExportedTipRewritesTheRangesFromTheFork() throws Exception {
        Path out = dir.resolve("www");
        try (IndexStore store = IndexStore.open(dir.resolve("index"))) {
            extend(store, 2_010, 0); // tip 2009, exported to 2003
            StaticExport.export(store, out, 6, "regtest", null);
            String oldLast = index(out).path("files").get(8).path("path").asText();

            for (int i = 0; i < 15; i++) { // a reorg of depth 15 > safety depth 6, fork at 1994
                store.disconnectTip(false);
            }
            extend(store, 20, 7);
            StaticExport.Result after = StaticExport.export(store, out, 6, "regtest", null);
            assertEquals(2_008, after.tipHeight());
            assertEquals(
                    7,
                    after.filesWritten(),
                    "ranges 1000-1999 and 2000-2008 hold blocks of the new branch, and checkpoints");
            assertEquals(3, after.filesKept(), "range 0-999 is below the fork");
            JsonNode idx = index(out);
            for (JsonNode f : idx.path("files")) {
                assertEquals(
                        store.hashAt(f.path("stop").asInt()).orElseThrow().toString(),
                        f.path("stopHash").asText());
            }
            assertTrue(Files.exists(out.resolve(oldLast)), "replaced files stay for clients with the old index");
        }
    }

    @Test
    void refusesAnIndexShorterThanTheSafetyDepth() {
        try (IndexStore store = IndexStore.open(dir.resolve("index"))) {
            extend(store, 3, 0);
            IllegalStateException e = assertThrows(
                    IllegalStateException.class,
                    () -> StaticExport.export(store, dir.resolve("www"), 6, "regtest", null));
            assertTrue(e.getMessage().contains("safety depth"), e.getMessage());
        }
    }
}
