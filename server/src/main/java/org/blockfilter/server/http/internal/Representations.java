package org.blockfilter.server.http.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.CompactSize;
import org.blockfilter.filters.wire.WireWriter;
import org.blockfilter.server.read.IndexedFilter;

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

    /**
     * Streams {@code {"filters": [{"blockHash", "height", "filter"}, ...]}}, the bytes the mapper
     * would give for the whole list, one filter at a time. Does not close {@code out}.
     */
    public static void writeRangeJson(Iterator<IndexedFilter> filters, OutputStream out) throws IOException {
        try (JsonGenerator gen = JSON.getFactory().createGenerator(out)) {
            gen.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            gen.writeStartObject();
            gen.writeFieldName("filters");
            gen.writeStartArray();
            while (filters.hasNext()) {
                IndexedFilter f = filters.next();
                gen.writeStartObject();
                gen.writeStringField("blockHash", f.blockHash().toString());
                gen.writeNumberField("height", f.height());
                gen.writeStringField("filter", HashHex.hex(f.filter()));
                gen.writeEndObject();
            }
            gen.writeEndArray();
            gen.writeEndObject();
        }
    }

    /**
     * Streams, for each block: 32-byte block hash (wire order), CompactSize length, filter bytes.
     * Does not close {@code out}.
     */
    public static void writeRangeBinary(Iterator<IndexedFilter> filters, OutputStream out) throws IOException {
        while (filters.hasNext()) {
            IndexedFilter f = filters.next();
            WireWriter w = new WireWriter(32 + CompactSize.size(f.filterLength()) + f.filterLength());
            out.write(w.hash(f.blockHash()).varBytes(f.filter()).toByteArray());
        }
    }

    /** The cfheaders content of a range: what is kept of its filters, not the filters. */
    public record FilterHeaders(Sha256Hash prevHeader, List<Sha256Hash> filterHashes, List<Sha256Hash> headers) {
        /** Reads the range, keeping hashes only. */
        public static FilterHeaders of(Iterator<IndexedFilter> filters) {
            Sha256Hash prev = null;
            List<Sha256Hash> filterHashes = new ArrayList<>();
            List<Sha256Hash> headers = new ArrayList<>();
            while (filters.hasNext()) {
                IndexedFilter f = filters.next();
                if (prev == null) {
                    prev = f.prevHeader();
                }
                filterHashes.add(f.filterHash());
                headers.add(f.header());
            }
            return new FilterHeaders(prev, filterHashes, headers);
        }
    }

    public static byte[] filterHeadersJson(FilterHeaders h) {
        return json(new FilterHeadersJson(
                h.prevHeader().toString(),
                h.filterHashes().stream().map(Sha256Hash::toString).toList(),
                h.headers().stream().map(Sha256Hash::toString).toList()));
    }

    /** As the cfheaders message after its type and stop hash: prev header, CompactSize count, filter hashes. */
    public static byte[] filterHeadersBinary(FilterHeaders h) {
        WireWriter out = new WireWriter(32 + 3 + 32 * h.filterHashes().size());
        out.hash(h.prevHeader()).compactSize(h.filterHashes().size());
        for (Sha256Hash f : h.filterHashes()) {
            out.hash(f);
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
