package org.blockfilter.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The vector copies are the files as received: each one's sha256 is the one PROVENANCE.md records. */
class VectorsProvenanceTest {

    private static final Pattern ROW =
            Pattern.compile("^\\| `([^`]+)` \\|.*\\| `([0-9a-f]{64})` \\|$", Pattern.MULTILINE);

    @Test
    void everyVectorFileHashesToItsRecordedSha256() throws Exception {
        String provenance = new String(Vectors.bytes("PROVENANCE.md"), StandardCharsets.UTF_8);
        Map<String, String> recorded = new LinkedHashMap<>();
        Matcher m = ROW.matcher(provenance);
        while (m.find()) {
            recorded.put(m.group(1), m.group(2));
        }
        assertTrue(
                recorded.keySet()
                        .containsAll(java.util.List.of(
                                "bip158/blockfilters.json",
                                "bip158/siphash24_vectors.json",
                                "bip37/bloom_vectors.json")),
                "PROVENANCE.md lists " + recorded.keySet());
        for (Map.Entry<String, String> e : recorded.entrySet()) {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Vectors.bytes(e.getKey()));
            assertEquals(e.getValue(), HexFormat.of().formatHex(digest), e.getKey());
        }
    }
}
