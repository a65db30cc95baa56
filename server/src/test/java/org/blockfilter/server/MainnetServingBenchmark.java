package org.blockfilter.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.server.rpc.Http11OnlyNode;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;

/**
 * The index and the node that server/bench/mainnet-serving.sh serves: builds an on-disk
 * {@link IndexStore} of {@code blocks} blocks whose BIP 158 filters have mainnet's size (on
 * average 7,400 elements, uniform in 6,400..8,400, of 22-34 random bytes; ~19 KB each), built with
 * {@link GolombCodedSet} under each block's own key, with linked headers and filter headers.
 * Then it answers JSON-RPC as a node whose best chain is exactly that index (getblockchaininfo,
 * getbestblockhash, getblockcount, getblockhash), so real {@code blockfilter-server} processes
 * (a primary and {@code --read-only-secondary} ones) serve the index and find nothing to do.
 *
 * <p>It also writes, for nginx, each block's filter as a file at {@code
 * STATIC/api/v1/filters/<block hash>} (the bytes of {@code GET /api/v1/filters/<hash>} with
 * {@code Accept: application/octet-stream}), and the lists of request paths wrk replays:
 * {@code singles.txt} (every block's filter) and {@code ranges.txt} (every full, aligned
 * 1000-block range below the export's safety depth of 6, as {@code /api/v1/filters} ranges).
 * Prints {@code NODE <url>}, {@code TIP <height>} and {@code READY}, then serves until its
 * standard input closes.
 *
 * <p>Usage: {@code MainnetServingBenchmark DATA_DIR STATIC_DIR LISTS_DIR [blocks] [seed]}.
 */
public final class MainnetServingBenchmark {
    /** Mean elements of a recent mainnet block's basic filter (the mainnet profile's sizing target, docs/mainnet-profile.md). */
    static final int MEAN_ELEMENTS = 7_400;

    private static final int SPREAD = 1_000;
    private static final int SAFETY_DEPTH = 6;
    /** The chain name the stub node reports. */
    static final String CHAIN = "mainnet-serving-bench";

    private MainnetServingBenchmark() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: MainnetServingBenchmark DATA_DIR STATIC_DIR LISTS_DIR [blocks] [seed]");
            System.exit(2);
        }
        Path data = Path.of(args[0]);
        Path statics = Path.of(args[1]);
        Path lists = Path.of(args[2]);
        int blocks = args.length > 3 ? Integer.parseInt(args[3]) : 6_000;
        long seed = args.length > 4 ? Long.parseLong(args[4]) : 1;
        long t0 = System.nanoTime();
        List<Sha256Hash> hashes = build(data, statics.resolve("api/v1/filters"), blocks, seed);
        writeLists(lists, hashes);
        PrintStream out = System.out;
        out.printf(
                "built %d blocks of mainnet-size filters (%.1f MB of filters) in %.1f s%n",
                blocks, filterBytes / 1e6, (System.nanoTime() - t0) / 1e9);
        Sha256Hash tip = hashes.get(hashes.size() - 1);
        int tipHeight = hashes.size() - 1;
        // The chain is named as no network the server knows: its block 0 is not a real genesis,
        // which the server checks for every network it knows (and then refuses to start).
        try (Http11OnlyNode node = new Http11OnlyNode((method, params) -> switch (method) {
            case "getblockchaininfo" ->
                Http11OnlyNode.Answer.result(
                        "{\"chain\":\"" + CHAIN + "\",\"blocks\":" + tipHeight + ",\"pruned\":false}");
            case "getblockcount" -> Http11OnlyNode.Answer.result(Integer.toString(tipHeight));
            case "getbestblockhash" -> Http11OnlyNode.Answer.result("\"" + tip + "\"");
            case "getblockhash" -> {
                int h = params.path(0).asInt(-1);
                yield h >= 0 && h <= tipHeight
                        ? Http11OnlyNode.Answer.result("\"" + hashes.get(h) + "\"")
                        : Http11OnlyNode.Answer.json(
                                "{\"result\":null,\"error\":{\"code\":-8,\"message\":\"Block height out of range\"}}");
            }
            default ->
                Http11OnlyNode.Answer.json("{\"result\":null,\"error\":{\"code\":-32601,\"message\":\"" + method
                        + " is not served by this benchmark node\"}}");
        })) {
            out.println("NODE " + node.url());
            out.println("TIP " + tipHeight);
            out.println("READY");
            out.flush();
            while (System.in.read() >= 0) {
                // serve until the script closes our stdin
            }
        }
    }

    private static long filterBytes;

    /** Writes the chain into a new store at {@code data} and each filter to {@code singles}; returns the hashes. */
    static List<Sha256Hash> build(Path data, Path singles, int blocks, long seed) throws IOException {
        Files.createDirectories(singles);
        Random random = new Random(seed);
        List<Sha256Hash> hashes = new ArrayList<>(blocks);
        Sha256Hash prevHash = Sha256Hash.ZERO_HASH;
        Sha256Hash prevHeader = FilterHeaders.GENESIS_PREV;
        try (IndexStore store = IndexStore.open(data)) {
            for (int height = 0; height < blocks; height++) {
                byte[] header = header(prevHash, height, random);
                Sha256Hash hash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header));
                int n = MEAN_ELEMENTS - SPREAD + random.nextInt(2 * SPREAD + 1);
                List<byte[]> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    byte[] script = new byte[22 + random.nextInt(13)];
                    random.nextBytes(script);
                    items.add(script);
                }
                byte[] filter = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, BasicFilter.key(hash), items)
                        .encoded();
                Sha256Hash filterHash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(filter));
                Sha256Hash filterHeader = FilterHeaders.next(filterHash, prevHeader);
                store.connect(
                        new StoredBlock(hash, height, header, filterHash, filterHeader, prevHeader, filter),
                        List.of(),
                        List.of(),
                        false);
                Files.write(singles.resolve(hash.toString()), filter);
                filterBytes += filter.length;
                hashes.add(hash);
                prevHash = hash;
                prevHeader = filterHeader;
            }
        }
        return hashes;
    }

    /** An 80-byte header on {@code prev} with a random merkle root (proof of work is not checked here). */
    private static byte[] header(Sha256Hash prev, int height, Random random) {
        ByteBuffer b = ByteBuffer.allocate(StoredBlock.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x20000000);
        b.put(prev.serialize());
        byte[] merkle = new byte[32];
        random.nextBytes(merkle);
        b.put(merkle);
        b.putInt(1_231_006_505 + 600 * height);
        b.putInt(0x207fffff);
        b.putInt(random.nextInt());
        return b.array();
    }

    private static void writeLists(Path lists, List<Sha256Hash> hashes) throws IOException {
        Files.createDirectories(lists);
        StringBuilder singles = new StringBuilder();
        for (Sha256Hash h : hashes) {
            singles.append("/api/v1/filters/").append(h).append('\n');
        }
        Files.writeString(lists.resolve("singles.txt"), singles, StandardCharsets.US_ASCII);
        StringBuilder ranges = new StringBuilder();
        int exportedTip = hashes.size() - 1 - SAFETY_DEPTH;
        for (int start = 0; start + Bip157.MAX_CFILTERS - 1 <= exportedTip; start += Bip157.MAX_CFILTERS) {
            ranges.append("/api/v1/filters?start_height=")
                    .append(start)
                    .append("&stop_hash=")
                    .append(hashes.get(start + Bip157.MAX_CFILTERS - 1))
                    .append('\n');
        }
        Files.writeString(lists.resolve("ranges.txt"), ranges, StandardCharsets.US_ASCII);
    }
}
