package org.blockfilter.server.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.wire.WireWriter;
import org.blockfilter.server.store.ActiveRangeCursor;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;

/**
 * Writes the index as a static, content-addressed layout that any HTTP server can serve with
 * immutable caching, and brings an earlier export up to date.
 *
 * <pre>
 * OUT/index.json                                   the only file that changes (serve it no-cache)
 * OUT/headers/START-STOP.SHA256.bin                 80-byte block headers, START..STOP
 * OUT/filter-headers/START-STOP.SHA256.bin          as GET /api/v1/filter-headers: the filter header
 *                                                   before START | CompactSize n | n filter hashes
 * OUT/filters/START-STOP.SHA256.bin                 as GET /api/v1/filters: per block, block hash |
 *                                                   CompactSize length | filter
 * OUT/checkpoints/STOP.SHA256.bin                   as GET /api/v1/checkpoints: CompactSize n |
 *                                                   filter headers at 1000, 2000, ... up to STOP
 * OUT/blocks/BLOCKHASH.bin                          raw blocks (only with a block source)
 * </pre>
 *
 * Ranges are aligned to {@link #RANGE} = 1,000 blocks (BIP 157's {@code MAX_CFILTERS}); hashes
 * are in internal byte order as on the wire; SHA256 in a name is the hex SHA-256 of the file's
 * bytes, so a name always means the same bytes and every file but index.json may be cached
 * forever. Only blocks at least {@code safetyDepth} below the index's tip are exported, so a
 * normal reorg never touches an exported file; the last range is partial and is replaced (under
 * a new name) as the chain grows.
 *
 * <p>Incremental: a range whose last block is still on the indexed best chain at the same height
 * as in the previous index.json, and whose file exists, is kept; everything else is written.
 * A reorg deeper than the safety depth therefore rewrites the ranges from the fork on (their
 * last block changed) and index.json points at the new files; the replaced files stay, unlisted,
 * for clients that still hold the old index.json. index.json is written last, by atomic rename,
 * so a reader sees the old export or the new one, never a mix. Stateless; one export at a time
 * per directory.
 */
public final class StaticExport {
    /** Blocks per range file: BIP 157's limit on filters per {@code getcfilters}. */
    public static final int RANGE = Bip157.MAX_CFILTERS;
    /** The layout version in index.json. */
    public static final int FORMAT = 1;

    public static final String INDEX = "index.json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private static final List<String> KINDS = List.of(RangeFile.HEADERS, RangeFile.FILTER_HEADERS, RangeFile.FILTERS);

    private StaticExport() {}

    /**
     * What an export run did: {@code filesWritten} range and checkpoint files written, {@code filesKept}
     * left as they were (index.json, always replaced, is in neither), {@code blocksWritten} raw blocks.
     */
    public record Result(int tipHeight, Sha256Hash tipHash, int filesWritten, int filesKept, int blocksWritten) {}

    /**
     * Exports {@code store} into {@code out} up to {@code safetyDepth} blocks below its tip.
     *
     * @param network     the chain's name for index.json (e.g. {@code regtest})
     * @param blockSource raw blocks by hash, or null to export no blocks
     * @throws IllegalStateException if the index is shorter than the safety depth or does not
     *                               match the earlier export's genesis
     * @throws UncheckedIOException  if a file cannot be written
     */
    public static Result export(
            IndexStore store,
            Path out,
            int safetyDepth,
            String network,
            Function<Sha256Hash, Optional<byte[]>> blockSource) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(network, "network");
        if (safetyDepth < 0) {
            throw new IllegalArgumentException("safetyDepth must be >= 0: " + safetyDepth);
        }
        ChainTip tip = store.tip().orElseThrow(() -> new IllegalStateException("the index is empty"));
        int exportTip = tip.height() - safetyDepth;
        if (exportTip < 0) {
            throw new IllegalStateException("the index's tip " + tip.height() + " is less than the safety depth "
                    + safetyDepth + " above genesis: nothing is buried deep enough to export");
        }
        Sha256Hash genesis = store.hashAt(0).orElseThrow();
        Sha256Hash exportTipHash = store.hashAt(exportTip).orElseThrow();
        try {
            Files.createDirectories(out);
            Map<String, JsonNode> previous = previousFiles(out, genesis);
            ArrayNode files = JSON.createArrayNode();
            int written = 0;
            int kept = 0;
            for (int start = 0; start <= exportTip; start += RANGE) {
                int stop = Math.min(start + RANGE - 1, exportTip);
                Sha256Hash stopHash = store.hashAt(stop).orElseThrow();
                Map<String, JsonNode> entries = new HashMap<>();
                List<String> stale = new ArrayList<>();
                for (String kind : KINDS) {
                    JsonNode old = previous.get(kind + "/" + start);
                    if (old != null
                            && old.path("stop").asInt(-1) == stop
                            && stopHash.toString().equals(old.path("stopHash").asText())
                            && Files.isRegularFile(out.resolve(old.path("path").asText()))) {
                        entries.put(kind, old);
                        kept++;
                    } else {
                        stale.add(kind);
                    }
                }
                if (!stale.isEmpty()) {
                    entries.putAll(writeRange(store, out, stale, start, stop, stopHash));
                    written += stale.size();
                }
                KINDS.forEach(kind -> files.add(entries.get(kind)));
            }
            Written checkpoints = writeCheckpoints(store, out, exportTip, exportTipHash);
            if (checkpoints.written()) {
                written++;
            } else {
                kept++;
            }
            int blocksWritten = 0;
            if (blockSource != null) {
                Files.createDirectories(out.resolve("blocks"));
                for (int h = 0; h <= exportTip; h++) {
                    Sha256Hash hash = store.hashAt(h).orElseThrow();
                    Path file = out.resolve("blocks/" + hash + ".bin");
                    if (Files.isRegularFile(file)) {
                        continue;
                    }
                    byte[] raw = blockSource
                            .apply(hash)
                            .orElseThrow(() -> new IllegalStateException("the node does not have block " + hash));
                    writeIfAbsent(file, raw);
                    blocksWritten++;
                }
            }
            ObjectNode index = JSON.createObjectNode();
            index.put("format", FORMAT);
            index.put("network", network);
            index.put("genesis", genesis.toString());
            index.put("tipHeight", exportTip);
            index.put("tipHash", exportTipHash.toString());
            index.put("indexedHeight", tip.height());
            index.put("safetyDepth", safetyDepth);
            index.put("rangeSize", RANGE);
            index.put("blocks", blockSource != null);
            index.set("checkpoints", checkpoints.entry());
            index.set("files", files);
            Path tmp = out.resolve(INDEX + ".tmp");
            Files.write(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(index));
            move(tmp, out.resolve(INDEX));
            return new Result(exportTip, exportTipHash, written, kept, blocksWritten);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the export in " + out + ": " + e.getMessage(), e);
        }
    }

    /** The files of the earlier export, by "kind/start"; empty when there is none. */
    private static Map<String, JsonNode> previousFiles(Path out, Sha256Hash genesis) throws IOException {
        Path index = out.resolve(INDEX);
        Map<String, JsonNode> byRange = new HashMap<>();
        if (!Files.isRegularFile(index)) {
            return byRange;
        }
        JsonNode old = JSON.readTree(index.toFile());
        if (old.path("format").asInt() != FORMAT) {
            throw new IllegalStateException(index + " has format " + old.path("format") + ", not " + FORMAT
                    + ": export into an empty directory");
        }
        if (!genesis.toString().equals(old.path("genesis").asText())) {
            throw new IllegalStateException(index + " exports another chain (genesis " + old.path("genesis")
                    + "): export into an empty directory");
        }
        for (JsonNode f : old.path("files")) {
            byRange.put(f.path("kind").asText() + "/" + f.path("start").asInt(), f);
        }
        return byRange;
    }

    /**
     * Writes the files of {@code kinds} for one range in one pass over the range's cursor (one
     * snapshot), a block at a time, and returns their index.json entries by kind.
     */
    private static Map<String, JsonNode> writeRange(
            IndexStore store, Path out, List<String> kinds, int start, int stop, Sha256Hash stopHash)
            throws IOException {
        List<RangeFile> rangeFiles = new ArrayList<>();
        try (ActiveRangeCursor blocks = store.openActiveRange(start, stopHash)
                .orElseThrow(() -> new IllegalStateException("the index changed during the export"))) {
            for (String kind : kinds) {
                rangeFiles.add(new RangeFile(out, kind, start, stop));
            }
            while (blocks.hasNext()) {
                StoredBlock b = blocks.next();
                for (RangeFile f : rangeFiles) {
                    f.append(b);
                }
            }
            Map<String, JsonNode> entries = new HashMap<>();
            for (RangeFile f : rangeFiles) {
                RangeFile.Written w = f.finish(out, start, stop);
                ObjectNode e = JSON.createObjectNode();
                e.put("kind", f.kind());
                e.put("start", start);
                e.put("stop", stop);
                e.put("stopHash", stopHash.toString());
                e.put("path", w.path());
                e.put("sha256", w.sha256());
                e.put("bytes", w.bytes());
                entries.put(f.kind(), e);
            }
            return entries;
        } finally {
            for (RangeFile f : rangeFiles) {
                f.close();
            }
        }
    }

    /** A file's entry in index.json, and whether this run wrote the file (false: it was there). */
    private record Written(ObjectNode entry, boolean written) {}

    private static Written writeCheckpoints(IndexStore store, Path out, int exportTip, Sha256Hash exportTipHash)
            throws IOException {
        List<Sha256Hash> headers = new ArrayList<>();
        for (int h = Bip157.CHECKPOINT_INTERVAL; h <= exportTip; h += Bip157.CHECKPOINT_INTERVAL) {
            Sha256Hash hash = store.hashAt(h).orElseThrow();
            headers.add(store.block(hash).orElseThrow().filterHeader());
        }
        WireWriter w = new WireWriter().compactSize(headers.size());
        headers.forEach(w::hash);
        byte[] content = w.toByteArray();
        String path = "checkpoints/" + exportTip + "." + sha256(content) + ".bin";
        boolean wrote = writeIfAbsent(out.resolve(path), content);
        ObjectNode e = JSON.createObjectNode();
        e.put("stop", exportTip);
        e.put("stopHash", exportTipHash.toString());
        e.put("count", headers.size());
        e.put("path", path);
        e.put("sha256", sha256(content));
        e.put("bytes", content.length);
        return new Written(e, wrote);
    }

    /** Content-addressed: an existing file of that name already holds these bytes. True if it wrote the file. */
    private static boolean writeIfAbsent(Path file, byte[] content) throws IOException {
        if (Files.isRegularFile(file) && Files.size(file) == content.length) {
            return false;
        }
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, content);
        move(tmp, file);
        return true;
    }

    static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static String sha256(byte[] content) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256", e);
        }
    }
}
