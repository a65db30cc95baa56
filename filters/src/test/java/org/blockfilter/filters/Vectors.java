package org.blockfilter.filters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;

/**
 * Reads the official vectors from the classpath ({@code /testvectors/...}, byte-identical copies
 * described in {@code testvectors/PROVENANCE.md}); nothing is retyped here. Other modules get this
 * class and the files through the filters test-jar.
 */
public final class Vectors {

    private static final HexFormat HEX = HexFormat.of();

    private Vectors() {}

    /** The bytes of {@code testvectors/<relative>}, e.g. {@code bip158/blockfilters.json}. */
    public static byte[] bytes(String relative) {
        String name = "/testvectors/" + relative;
        try (InputStream in = Vectors.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("test vector " + name + " is not on the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode json(String relative) {
        try {
            return new ObjectMapper().readTree(bytes(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One data row of bip158/blockfilters.json. */
    public record BlockFilterRow(
            int height,
            Sha256Hash blockHash,
            String blockHex,
            List<String> prevScriptsHex,
            Sha256Hash prevHeader,
            String filterHex,
            Sha256Hash header,
            String notes) {

        public Block block() {
            return Block.read(ByteBuffer.wrap(HEX.parseHex(blockHex)));
        }

        public List<byte[]> prevScripts() {
            List<byte[]> out = new ArrayList<>();
            for (String s : prevScriptsHex) {
                out.add(HEX.parseHex(s));
            }
            return out;
        }

        public byte[] filterBytes() {
            return HEX.parseHex(filterHex);
        }

        @Override
        public String toString() {
            return height + " " + notes;
        }
    }

    /** All data rows of bip158/blockfilters.json (the one-element header row skipped, as Core does). */
    public static List<BlockFilterRow> blockFilters() {
        List<BlockFilterRow> rows = new ArrayList<>();
        for (JsonNode row : json("bip158/blockfilters.json")) {
            if (row.size() == 1) {
                continue;
            }
            List<String> prev = new ArrayList<>();
            row.get(3).forEach(s -> prev.add(s.asText()));
            rows.add(new BlockFilterRow(
                    row.get(0).asInt(),
                    Sha256Hash.wrap(row.get(1).asText()),
                    row.get(2).asText(),
                    List.copyOf(prev),
                    Sha256Hash.wrap(row.get(4).asText()),
                    row.get(5).asText(),
                    Sha256Hash.wrap(row.get(6).asText()),
                    row.get(7).asText()));
        }
        return rows;
    }
}
