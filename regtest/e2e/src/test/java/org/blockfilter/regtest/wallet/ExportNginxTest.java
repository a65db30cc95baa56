package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.internal.TempDirs;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.source.rest.ExportSource;
import org.blockfilter.wallet.sync.SourceFault;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncException;
import org.blockfilter.wallet.sync.SyncReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The static export end to end: a scenario chain on the embedded node, indexed by our server,
 * exported with {@code blockfilter-server export --blocks}, served by nginx like any CDN, and a
 * light wallet syncing from nothing but that URL to the payments it received; re-exporting after
 * the chain grew writes only the new files. A tampered export is caught by the wallet.
 */
class ExportNginxTest {
    private static final char[] PASSPHRASE = "export".toCharArray();
    private static final int SAFETY_DEPTH = 6;

    private static Path work;
    private static WalletFixture<EmbeddedNode> chain;
    private static RegtestNode node;
    private static ServerOnNode server;
    /** The wallet's coins on chain: the ground truth its sync must reach. */
    private static Set<String> paid;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildIndexAndExport() throws IOException {
        work = Files.createTempDirectory("blockfilter-export-it-");
        chain = WalletFixture.onEmbedded(ScenarioSpec.small(20_261_201L, 20));
        node = chain.node();
        LightWallet w = wallet(work.resolve("template.json"));
        List<String> outpoints = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            outpoints.add(
                    chain.pay(WalletFixture.receiving(w, AddressKind.P2WPKH, i)).outpoint());
            node.mine(1);
        }
        paid = Set.copyOf(outpoints);
        node.mine(1_010 + SAFETY_DEPTH - node.tipHeight()); // a checkpoint at 1000 in the export
        server = new ServerOnNode(node);
        // The CLI, beside the open (primary) index: it reads it as a secondary instance.
        assertEquals(0, export(work.resolve("export")));
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        if (chain != null) {
            chain.close();
        }
        if (work != null) {
            TempDirs.deleteQuietly(work);
        }
    }

    private static int export(Path out) {
        return server.export(node, out, SAFETY_DEPTH);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static LightWallet wallet(Path file) {
        return WalletFixture.newWallet(file, PASSPHRASE, AddressKind.seedKinds());
    }

    private SyncReport syncFrom(URI base, String walletName) {
        LightWallet w = wallet(dir.resolve(walletName));
        try (ExportSource source = ExportSource.create(base, Duration.ofSeconds(30))) {
            SyncReport report = new SyncEngine(w, List.of(source), SyncEngine.Options.defaults()).sync();
            assertEquals(
                    paid,
                    w.ledger().utxos(true).stream()
                            .map(u -> u.outpoint().toString())
                            .collect(Collectors.toSet()));
            return report;
        }
    }

    private static Set<String> files(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString())
                    .collect(Collectors.toSet());
        }
    }

    @Test
    void walletSyncsFromAnNginxServedExportAndReExportWritesOnlyWhatIsNew() throws Exception {
        Path export = work.resolve("export");
        try (Nginx nginx = Nginx.serve(export)) {
            SyncReport report = syncFrom(nginx.baseUri(), "w1.json");
            assertEquals(node.tipHeight() - SAFETY_DEPTH, report.tipHeight());

            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<byte[]> index = http.send(
                    HttpRequest.newBuilder(nginx.baseUri().resolve("index.json"))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals("no-cache", index.headers().firstValue("Cache-Control").orElse(""));
            String aRange = new ObjectMapper()
                    .readTree(index.body())
                    .path("files")
                    .get(0)
                    .path("path")
                    .asText();
            HttpResponse<Void> range = http.send(
                    HttpRequest.newBuilder(nginx.baseUri().resolve(aRange)).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertTrue(range.headers().firstValue("Cache-Control").orElse("").contains("immutable"));

            Set<String> before = files(export);
            node.mine(30);
            server.reindex();
            assertEquals(0, export(export));
            Set<String> after = files(export);
            assertTrue(after.containsAll(before), "nothing written before is replaced or deleted");
            Set<String> added = after.stream()
                    .filter(f -> !before.contains(f) && !f.startsWith("blocks/"))
                    .collect(Collectors.toSet());
            // The growing last range (headers, filter headers, filters) and the checkpoints.
            assertEquals(4, added.size(), "only the last range and the checkpoints are new: " + added);

            SyncReport again = syncFrom(nginx.baseUri(), "w2.json");
            assertEquals(node.tipHeight() - SAFETY_DEPTH, again.tipHeight());
        }
    }

    @Test
    void walletDetectsATamperedExport() throws Exception {
        Path copy = dir.resolve("copy");
        copyTree(work.resolve("export"), copy);
        ObjectMapper json = new ObjectMapper();
        ObjectNode index = (ObjectNode) json.readTree(copy.resolve("index.json").toFile());
        ObjectNode filters = null;
        for (var f : index.path("files")) {
            if (f.path("kind").asText().equals("filters") && f.path("start").asInt() == 0) {
                filters = (ObjectNode) f;
            }
        }
        Path file = copy.resolve(filters.path("path").asText());
        byte[] original = Files.readAllBytes(file);

        // A file changed under its content-addressed name: the source's own check.
        byte[] flipped = original.clone();
        flipped[flipped.length - 1] ^= 1;
        Files.write(file, flipped);
        try (Nginx nginx = Nginx.serve(copy)) {
            SyncException e = assertThrows(SyncException.class, () -> syncFrom(nginx.baseUri(), "t1.json"));
            assertEquals(SourceFault.Kind.FAILED, e.faults().get(0).kind());
            assertTrue(e.getMessage().contains("SHA-256"), e.getMessage());
        }

        // Rewritten consistently, index.json included: block 150's filter swapped for block 1's.
        // Only the wallet's verification against the filter-header chain can catch this.
        byte[] forged = swapFilter(original, 150, 1);
        String sha =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(forged));
        String path = "filters/0-999." + sha + ".bin";
        Files.write(file, original);
        Files.write(copy.resolve(path), forged);
        filters.put("path", path).put("sha256", sha).put("bytes", forged.length);
        json.writeValue(copy.resolve("index.json").toFile(), index);
        try (Nginx nginx = Nginx.serve(copy)) {
            SyncException e = assertThrows(SyncException.class, () -> syncFrom(nginx.baseUri(), "t2.json"));
            SourceFault fault = e.faults().get(0);
            assertEquals(SourceFault.Kind.LIED, fault.kind(), fault.toString());
            assertEquals(150, fault.height(), fault.toString());
        }
    }

    /** A filters range file (block hash | CompactSize length | filter, per block) with {@code at}'s filter replaced by {@code from}'s. */
    private static byte[] swapFilter(byte[] file, int at, int from) {
        List<byte[]> hashes = new ArrayList<>();
        List<byte[]> filters = new ArrayList<>();
        ByteBuffer in = ByteBuffer.wrap(file);
        while (in.hasRemaining()) {
            byte[] hash = new byte[32];
            in.get(hash);
            int first = in.get() & 0xff;
            int len = first < 0xfd ? first : first == 0xfd ? (in.get() & 0xff) | (in.get() & 0xff) << 8 : -1;
            assertTrue(len >= 0, "test filters are short");
            byte[] filter = new byte[len];
            in.get(filter);
            hashes.add(hash);
            filters.add(filter);
        }
        filters.set(at, filters.get(from));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < hashes.size(); i++) {
            out.writeBytes(hashes.get(i));
            int len = filters.get(i).length;
            if (len < 0xfd) {
                out.write(len);
            } else {
                out.write(0xfd);
                out.write(len & 0xff);
                out.write(len >>> 8);
            }
            out.writeBytes(filters.get(i));
        }
        return out.toByteArray();
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
