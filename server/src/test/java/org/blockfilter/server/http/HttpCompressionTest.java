package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.zip.GZIPInputStream;
import org.bitcoinj.base.VarInt;
import org.blockfilter.server.http.RestConfig.Compression;
import org.blockfilter.server.read.IndexedFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code --http-compression}: gzip and none (the default), over HTTP, on the same chain. */
class HttpCompressionTest {
    private static final String BINARY = "application/octet-stream";

    @RegisterExtension
    static final RestServerExtension GZIP =
            RestServerExtension.ofChain(1100).withConfig(c -> c.withCompression(Compression.GZIP));

    @RegisterExtension
    static final RestServerExtension NONE = RestServerExtension.ofChain(1100);

    private static String range(RestTestChain chain) {
        return "/api/v1/filters?start_height=0&stop_hash=" + chain.at(999).blockHash();
    }

    private static byte[] gunzip(byte[] body) throws IOException {
        return new GZIPInputStream(new ByteArrayInputStream(body)).readAllBytes();
    }

    @Test
    void noneIsTheDefault() {
        assertEquals(Compression.NONE, RestConfig.defaults().compression());
    }

    @Test
    void withGzipJsonIsCompressedWhenTheClientAcceptsIt() throws IOException {
        HttpResponse<byte[]> zipped = GZIP.client().get(range(GZIP.chain()), "Accept-Encoding", "gzip");
        HttpResponse<byte[]> plain = GZIP.client().get(range(GZIP.chain()));
        assertEquals("gzip", zipped.headers().firstValue("Content-Encoding").orElseThrow());
        assertTrue(plain.headers().firstValue("Content-Encoding").isEmpty());
        assertArrayEquals(plain.body(), gunzip(zipped.body()));
        assertTrue(zipped.body().length < plain.body().length / 2, "hex compresses to under half");
    }

    @Test
    void withNoneJsonIsIdentityEvenWhenTheClientAcceptsGzip() {
        HttpResponse<byte[]> r = NONE.client().get(range(NONE.chain()), "Accept-Encoding", "gzip");
        assertEquals(200, r.statusCode());
        assertTrue(
                r.headers().firstValue("Content-Encoding").isEmpty(),
                r.headers().toString());
        assertArrayEquals(GZIP.client().get(range(GZIP.chain())).body(), r.body());
        HttpResponse<byte[]> one = NONE.client().get("/api/v1/filters/7", "Accept-Encoding", "gzip");
        assertTrue(one.headers().firstValue("Content-Encoding").isEmpty());
    }

    @Test
    void binaryRangesAreTheSameBytesWithEitherSetting() {
        RestTestChain chain = GZIP.chain();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int h = 0; h <= 999; h++) {
            IndexedFilter f = chain.at(h);
            expected.writeBytes(f.blockHash().serialize());
            expected.writeBytes(VarInt.of(f.filterLength()).serialize());
            expected.writeBytes(f.filter());
        }
        for (RestServerExtension server : new RestServerExtension[] {GZIP, NONE}) {
            HttpResponse<byte[]> r = server.client().get(range(chain), "Accept", BINARY, "Accept-Encoding", "gzip");
            assertEquals(200, r.statusCode());
            assertTrue(r.headers().firstValue("Content-Encoding").isEmpty(), "binary is never compressed");
            assertArrayEquals(expected.toByteArray(), r.body());
        }
    }

    @Test
    void parsesTheCommandLineNamesOnly() {
        assertEquals(Compression.GZIP, Compression.parse("gzip"));
        assertEquals(Compression.NONE, Compression.parse("none"));
        assertEquals("none", Compression.NONE.cliName());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Compression.parse("br"));
        assertEquals("expected gzip or none, got \"br\"", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Compression.parse("GZIP"));
    }
}
