package org.blockfilter.filters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;

/** Reads the shared official vectors (system property {@code testvectors.dir}); nothing is retyped here. */
public final class Vectors {

    private static final HexFormat HEX = HexFormat.of();

    private Vectors() {
    }

    public static Path dir() {
        String dir = System.getProperty("testvectors.dir");
        if (dir == null) {
            throw new IllegalStateException("system property testvectors.dir is not set (the parent pom sets it)");
        }
        return Path.of(dir);
    }

    public static JsonNode json(String relative) {
        try {
            return new ObjectMapper().readTree(Files.readString(dir().resolve(relative)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One data row of bip158/blockfilters.json. */
    public record BlockFilterRow(int height, Sha256Hash blockHash, String blockHex, List<String> prevScriptsHex,
                                 Sha256Hash prevHeader, String filterHex, Sha256Hash header, String notes) {

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
            rows.add(new BlockFilterRow(row.get(0).asInt(), Sha256Hash.wrap(row.get(1).asText()), row.get(2).asText(),
                    List.copyOf(prev), Sha256Hash.wrap(row.get(4).asText()), row.get(5).asText(),
                    Sha256Hash.wrap(row.get(6).asText()), row.get(7).asText()));
        }
        return rows;
    }
}
