package org.blockfilter.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Vectors;
import org.blockfilter.server.index.IndexedFilter;

/**
 * A test chain for the REST layer, immutable once built: heights 0..9 carry the ten BIP 158 vector
 * blocks with their official filters and headers; heights 10..13 the four BIP 37 vector blocks; the
 * rest are synthetic 80-byte headers with correctly chained filter headers. Plus one stale
 * (reorged-out) block and one block the node knows but the index has not reached.
 */
final class TestChain {
    static final HexFormat HEX = HexFormat.of();
    static final int BIP158_ROWS = 10;
    static final int FIRST_BIP37_HEIGHT = 10;

    final List<IndexedFilter> active = new ArrayList<>();
    final Map<Sha256Hash, IndexedFilter> byHash = new LinkedHashMap<>();
    final Map<Sha256Hash, byte[]> headers = new LinkedHashMap<>();
    final Map<Sha256Hash, byte[]> rawBlocks = new LinkedHashMap<>();
    final List<JsonNode> bip158Rows = new ArrayList<>();
    final JsonNode bloomVectors;
    final IndexedFilter stale;
    final Sha256Hash unindexedButKnownToNode;

    static TestChain build(int length) {
        return new TestChain(length);
    }

    private TestChain(int length) {
        ObjectMapper json = new ObjectMapper();
        JsonNode rows;
        try {
            rows = json.readTree(Vectors.bytes("bip158/blockfilters.json"));
            bloomVectors = json.readTree(Vectors.bytes("bip37/bloom_vectors.json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (JsonNode row : rows) {
            if (row.size() > 1) {
                bip158Rows.add(row);
            }
        }
        for (JsonNode row : bip158Rows) {
            int height = active.size();
            Sha256Hash hash = Sha256Hash.wrap(row.get(1).asText());
            byte[] block = HEX.parseHex(row.get(2).asText());
            byte[] filter = HEX.parseHex(row.get(5).asText());
            add(
                    new IndexedFilter(
                            hash,
                            height,
                            filter,
                            filterHash(filter),
                            Sha256Hash.wrap(row.get(6).asText()),
                            Sha256Hash.wrap(row.get(4).asText()),
                            true),
                    block);
        }
        for (JsonNode b : bloomVectors.get("blocks")) {
            int height = active.size();
            byte[] block = HEX.parseHex(b.get("block_hex").asText());
            byte[] filter =
                    HEX.parseHex(bip158Rows.get(height % BIP158_ROWS).get(5).asText());
            Sha256Hash prev = active.get(height - 1).header();
            add(
                    new IndexedFilter(
                            Sha256Hash.wrap(b.get("block_hash").asText()),
                            height,
                            filter,
                            filterHash(filter),
                            header(filterHash(filter), prev),
                            prev,
                            true),
                    block);
        }
        while (active.size() < length) {
            int height = active.size();
            byte[] header = syntheticHeader(height, active.get(height - 1).blockHash());
            byte[] filter =
                    HEX.parseHex(bip158Rows.get(height % BIP158_ROWS).get(5).asText());
            Sha256Hash prev = active.get(height - 1).header();
            byte[] block = Arrays.copyOf(header, 81); // header + zero transactions: opaque to the REST layer
            add(
                    new IndexedFilter(
                            hashOfHeader(header),
                            height,
                            filter,
                            filterHash(filter),
                            header(filterHash(filter), prev),
                            prev,
                            true),
                    block);
        }
        byte[] staleHeader = syntheticHeader(-50, active.get(49).blockHash());
        byte[] staleFilter = HEX.parseHex(bip158Rows.get(3).get(5).asText());
        stale = new IndexedFilter(
                hashOfHeader(staleHeader),
                50,
                staleFilter,
                filterHash(staleFilter),
                header(filterHash(staleFilter), active.get(49).header()),
                active.get(49).header(),
                false);
        byHash.put(stale.blockHash(), stale);
        headers.put(stale.blockHash(), staleHeader);
        rawBlocks.put(stale.blockHash(), Arrays.copyOf(staleHeader, 81));
        byte[] next = syntheticHeader(length, tip().blockHash());
        unindexedButKnownToNode = hashOfHeader(next);
        rawBlocks.put(unindexedButKnownToNode, Arrays.copyOf(next, 81));
    }

    private void add(IndexedFilter f, byte[] block) {
        active.add(f);
        byHash.put(f.blockHash(), f);
        headers.put(f.blockHash(), Arrays.copyOf(block, 80));
        rawBlocks.put(f.blockHash(), block);
    }

    IndexedFilter tip() {
        return active.get(active.size() - 1);
    }

    IndexedFilter at(int height) {
        return active.get(height);
    }

    static Sha256Hash filterHash(byte[] filter) {
        return Sha256Hash.wrapReversed(Sha256Hash.hashTwice(filter));
    }

    /** BIP 157: double-SHA256(filter hash || previous header), both in internal byte order. */
    static Sha256Hash header(Sha256Hash filterHash, Sha256Hash prevHeader) {
        return Sha256Hash.wrapReversed(
                Sha256Hash.hashTwice(filterHash.getReversedBytes(), prevHeader.getReversedBytes()));
    }

    static Sha256Hash hashOfHeader(byte[] header) {
        return Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header));
    }

    private static byte[] syntheticHeader(int height, Sha256Hash prev) {
        ByteBuffer b = ByteBuffer.allocate(80).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x20000000);
        b.put(prev.getReversedBytes());
        b.put(Sha256Hash.hash(Integer.toString(height).getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        b.putInt(1_700_000_000 + height * 600);
        b.putInt(0x207fffff);
        b.putInt(height);
        return b.array();
    }
}
