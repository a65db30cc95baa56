package org.blockfilter.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Vectors;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.server.read.IndexedFilter;

/**
 * A test chain for the REST layer, immutable once built: heights 0..9 carry the ten BIP 158 vector
 * blocks with their official filters and headers; heights 10..13 the four BIP 37 vector blocks; the
 * rest are regtest blocks mined by the shared {@link RegtestChainBuilder}, with their real filters
 * and correctly chained filter headers. Plus one stale (reorged-out) block and one block the node
 * knows but the index has not reached. Its blocks do not link to the vector blocks by hash: the
 * REST layer never follows the prev-hash links.
 */
final class RestTestChain {
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

    static RestTestChain build(int length) {
        return new RestTestChain(length);
    }

    private RestTestChain(int length) {
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
        // The rest of the chain, one block past the index tip, and a stale block at 50, are real
        // regtest blocks from the shared builder, with their real filters; filter headers continue
        // the vector chain.
        RegtestChainBuilder mined = new RegtestChainBuilder().mine(Math.max(length, 51));
        while (active.size() < length) {
            int height = active.size();
            addMined(mined, height, active.get(height - 1).header(), true);
        }
        RegtestChainBuilder fork = mined.forkAt(49).mine(1);
        stale = minedFilter(fork, 50, active.get(49).header(), false);
        byHash.put(stale.blockHash(), stale);
        headers.put(stale.blockHash(), fork.header(50));
        rawBlocks.put(stale.blockHash(), fork.block(50).serialize());
        unindexedButKnownToNode = mined.block(length).getHash();
        rawBlocks.put(unindexedButKnownToNode, mined.block(length).serialize());
    }

    private void addMined(RegtestChainBuilder mined, int height, Sha256Hash prevHeader, boolean active) {
        add(minedFilter(mined, height, prevHeader, active), mined.block(height).serialize());
    }

    private static IndexedFilter minedFilter(
            RegtestChainBuilder mined, int height, Sha256Hash prevHeader, boolean active) {
        byte[] filter = mined.filter(height).bytes();
        return new IndexedFilter(
                mined.block(height).getHash(),
                height,
                filter,
                filterHash(filter),
                header(filterHash(filter), prevHeader),
                prevHeader,
                active);
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
}
