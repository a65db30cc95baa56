package org.blockfilter.server.http.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.CompactSize;
import org.blockfilter.filters.wire.WireWriter;
import org.blockfilter.server.index.IndexedFilter;

/**
 * The JSON and binary bodies of our API (see docs/api.md). Hashes in JSON are display-order hex;
 * in binary they are in wire (internal) order. Stateless and thread-safe.
 */
public final class Representations {
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private Representations() {}

    public static byte[] json(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record ErrorBody(ErrorDetail error) {}

    private record ErrorDetail(int status, String code, String message) {}

    /** The API's one error shape: {@code {"error": {"status", "code", "message"}}}. */
    public static byte[] errorJson(int status, String code, String message) {
        return json(new ErrorBody(new ErrorDetail(status, code, message)));
    }

    public static ObjectMapper mapper() {
        return JSON;
    }

    record FilterJson(
            String blockHash,
            int height,
            String filter,
            String filterHash,
            String header,
            String prevHeader,
            boolean active) {}

    record RangeEntry(String blockHash, int height, String filter) {}

    record RangeJson(List<RangeEntry> filters) {}

    record FilterHeadersJson(String prevHeader, List<String> filterHashes, List<String> headers) {}

    record CheckpointsJson(String stopHash, List<String> checkpoints) {}

    record HeadersJson(List<String> headers) {}

    record BlockJson(String hash, Integer height, String block) {}

    record TxidJson(String txid) {}

    public static byte[] filterJson(IndexedFilter f) {
        return json(new FilterJson(
                f.blockHash().toString(),
                f.height(),
                HashHex.hex(f.filter()),
                f.filterHash().toString(),
                f.header().toString(),
                f.prevHeader().toString(),
                f.active()));
    }

    public static byte[] rangeJson(List<IndexedFilter> filters) {
        return json(new RangeJson(filters.stream()
                .map(f -> new RangeEntry(f.blockHash().toString(), f.height(), HashHex.hex(f.filter())))
                .toList()));
    }

    /** For each block: 32-byte block hash (wire order), CompactSize length, filter bytes. */
    public static byte[] rangeBinary(List<IndexedFilter> filters) {
        int size = 0;
        for (IndexedFilter f : filters) {
            size += 32 + CompactSize.size(f.filterLength()) + f.filterLength();
        }
        WireWriter out = new WireWriter(size);
        for (IndexedFilter f : filters) {
            out.hash(f.blockHash()).varBytes(f.filter());
        }
        return out.toByteArray();
    }

    public static byte[] filterHeadersJson(List<IndexedFilter> filters) {
        return json(new FilterHeadersJson(
                filters.get(0).prevHeader().toString(),
                filters.stream().map(f -> f.filterHash().toString()).toList(),
                filters.stream().map(f -> f.header().toString()).toList()));
    }

    /** As the cfheaders message after its type and stop hash: prev header, CompactSize count, filter hashes. */
    public static byte[] filterHeadersBinary(List<IndexedFilter> filters) {
        WireWriter out = new WireWriter(32 + 3 + 32 * filters.size());
        out.hash(filters.get(0).prevHeader()).compactSize(filters.size());
        for (IndexedFilter f : filters) {
            out.hash(f.filterHash());
        }
        return out.toByteArray();
    }

    public static byte[] checkpointsJson(FilterService.Checkpoints c) {
        return json(new CheckpointsJson(c.stopHash().toString(), HashHex.displayHex(c.headers())));
    }

    /** CompactSize count, then each checkpoint header in wire order. */
    public static byte[] checkpointsBinary(FilterService.Checkpoints c) {
        WireWriter out = new WireWriter(5 + 32 * c.headers().size());
        out.compactSize(c.headers().size());
        for (Sha256Hash h : c.headers()) {
            out.hash(h);
        }
        return out.toByteArray();
    }

    public static byte[] headersJson(List<byte[]> headers) {
        return json(new HeadersJson(headers.stream().map(HashHex::hex).toList()));
    }

    public static byte[] headersBinary(List<byte[]> headers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(80 * headers.size());
        headers.forEach(out::writeBytes);
        return out.toByteArray();
    }

    public static byte[] blockJson(FilterService.RawBlock b) {
        return json(new BlockJson(
                b.hash().toString(), b.height().isPresent() ? b.height().getAsInt() : null, HashHex.hex(b.block())));
    }

    public static byte[] txidJson(Sha256Hash txid) {
        return json(new TxidJson(txid.toString()));
    }
}
