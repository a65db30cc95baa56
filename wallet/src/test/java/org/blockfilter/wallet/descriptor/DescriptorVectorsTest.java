package org.blockfilter.wallet.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.bitcoinj.base.BitcoinNetwork;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The official test vectors of BIP 380-383, 385, 386 and 389, read from byte-identical copies of
 * the BIPs' test-vector sections (test resources {@code descriptors/}, sources in SOURCES.md):
 * each valid descriptor gives the listed scripts at indexes 0, 1, 2 (BIP 389: its expansions give
 * the same scripts as the multipath descriptor's paths), and survives a round trip through its
 * text; each invalid one is refused with a {@link DescriptorException}.
 */
class DescriptorVectorsTest {
    private static final Pattern TT = Pattern.compile("<tt>(.*?)</tt>");

    record Valid(String bip, String descriptor, List<String> expected) {
        @Override
        public String toString() {
            return "BIP " + bip + ": " + descriptor;
        }
    }

    static List<String> lines(String bip) throws IOException {
        try (InputStream in = DescriptorVectorsTest.class.getResourceAsStream(
                "/descriptors/bip-0" + bip + "-test-vectors.mediawiki")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    /** The last {@code <tt>} of a line (descriptions before it may hold {@code <tt>pk()</tt>}). */
    static String lastTt(String line) {
        Matcher m = TT.matcher(line);
        String last = null;
        while (m.find()) {
            last = m.group(1);
        }
        return last;
    }

    static List<Valid> valid(String bip) throws IOException {
        List<Valid> out = new ArrayList<>();
        for (String line : lines(bip)) {
            if (line.startsWith("Invalid")) {
                break;
            }
            if (line.startsWith("** ")) {
                out.get(out.size() - 1).expected().add(lastTt(line));
            } else if (line.startsWith("* ")) {
                out.add(new Valid(bip, repaired(lastTt(line)), new ArrayList<>()));
            }
        }
        return out;
    }

    /** BIP 389's third valid vector lacks its closing parenthesis in the BIP's text; its expansions have it. */
    private static String repaired(String d) {
        long open = d.chars().filter(c -> c == '(').count();
        long close = d.chars().filter(c -> c == ')').count();
        return open == close + 1 && d.startsWith("wpkh([ffffffff/13h]") ? d + ")" : d;
    }

    static List<String> invalid(String bip) throws IOException {
        List<String> out = new ArrayList<>();
        boolean on = false;
        for (String line : lines(bip)) {
            if (line.startsWith("Invalid")) {
                on = true;
            } else if (on && line.startsWith("* ")) {
                out.add(lastTt(line));
            }
        }
        return out;
    }

    static Stream<Valid> scriptVectors() throws IOException {
        Stream<Valid> s = Stream.empty();
        for (String bip : List.of("381", "382", "383", "385", "386")) {
            s = Stream.concat(s, valid(bip).stream());
        }
        return s;
    }

    static Stream<Arguments> invalidVectors() throws IOException {
        Stream<Arguments> s = Stream.empty();
        for (String bip : List.of("381", "382", "383", "385", "386", "389")) {
            s = Stream.concat(s, invalid(bip).stream().map(d -> Arguments.of(bip, d)));
        }
        return s;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scriptVectors")
    void validDescriptorGivesTheListedScripts(Valid v) {
        Descriptor d = Descriptor.parse(v.descriptor(), BitcoinNetwork.MAINNET);
        assertFalse(v.expected().isEmpty());
        for (int i = 0; i < v.expected().size(); i++) {
            assertEquals(v.expected().get(i), d.derive(0, i).script().hex(), "script " + i);
        }
        Descriptor again = Descriptor.parse(d.toPrivateString(), BitcoinNetwork.MAINNET);
        for (int i = 0; i < v.expected().size(); i++) {
            assertEquals(v.expected().get(i), again.derive(0, i).script().hex(), "private round trip, script " + i);
        }
        if (!v.descriptor().contains("*h)") && !v.descriptor().contains("*')")) {
            Descriptor pub = Descriptor.parse(d.toString(), BitcoinNetwork.MAINNET);
            assertFalse(pub.hasPrivateKeys());
            for (int i = 0; i < v.expected().size(); i++) {
                assertEquals(v.expected().get(i), pub.derive(0, i).script().hex(), "public round trip, script " + i);
            }
        }
    }

    @ParameterizedTest(name = "BIP {0}: {1}")
    @MethodSource("invalidVectors")
    void invalidDescriptorIsRefused(String bip, String descriptor) {
        assertThrows(DescriptorException.class, () -> Descriptor.parse(descriptor, BitcoinNetwork.MAINNET));
    }

    static Stream<Valid> multipathVectors() throws IOException {
        return valid("389").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("multipathVectors")
    void multipathDescriptorExpandsIntoTheListedDescriptors(Valid v) {
        Descriptor d = Descriptor.parse(v.descriptor(), BitcoinNetwork.MAINNET);
        assertEquals(v.expected().size(), d.paths());
        List<Descriptor> singles = d.singlePaths();
        for (int p = 0; p < d.paths(); p++) {
            Descriptor listed = Descriptor.parse(v.expected().get(p), BitcoinNetwork.MAINNET);
            assertEquals(listed.toPrivateString(), singles.get(p).toPrivateString(), "expansion " + p);
            for (int i = 0; i < 3; i++) {
                assertEquals(listed.derive(0, i).script(), d.derive(p, i).script(), "path " + p + " index " + i);
            }
        }
    }

    static Stream<Arguments> checksumVectors() throws IOException {
        List<Arguments> out = new ArrayList<>();
        for (String line : lines("380")) {
            if (line.startsWith("The following tests cover key expressions")) {
                break;
            }
            if (line.startsWith("* ")) {
                boolean valid = line.startsWith("* Valid checksum") || line.startsWith("* No checksum");
                out.add(Arguments.of(lastTt(line), valid));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} valid={1}")
    @MethodSource("checksumVectors")
    void checksumVectorsAreAcceptedOrRefused(String descriptor, boolean valid) {
        if (valid) {
            assertEquals(
                    "deadbeef",
                    Descriptor.parse(descriptor, BitcoinNetwork.MAINNET)
                            .derive(0, 0)
                            .script()
                            .hex());
        } else {
            assertThrows(DescriptorException.class, () -> Descriptor.parse(descriptor, BitcoinNetwork.MAINNET));
        }
    }

    static Stream<Arguments> keyExpressionVectors() throws IOException {
        List<Arguments> out = new ArrayList<>();
        Boolean valid = null;
        for (String line : lines("380")) {
            if (line.startsWith("Valid expressions")) {
                valid = true;
            } else if (line.startsWith("Invalid expression")) {
                valid = false;
            } else if (valid != null && line.startsWith("* ")) {
                out.add(Arguments.of(lastTt(line), valid));
            }
        }
        return out.stream();
    }

    /**
     * Key expressions are tested inside {@code pk()}, which takes every kind of key BIP 380 lists.
     * BIP 380 lists an xpub followed by hardened steps as a valid expression (its syntax is); no
     * output can be derived from it without the private key, so the parser refuses it and says so.
     */
    @ParameterizedTest(name = "{0} valid={1}")
    @MethodSource("keyExpressionVectors")
    void keyExpressionVectorsAreAcceptedOrRefused(String key, boolean valid) {
        String d = "pk(" + key + ")";
        if (valid && key.contains("xpub") && key.substring(key.indexOf("xpub")).matches(".*/[0-9*]+h.*")) {
            DescriptorException e =
                    assertThrows(DescriptorException.class, () -> Descriptor.parse(d, BitcoinNetwork.MAINNET));
            org.junit.jupiter.api.Assertions.assertTrue(
                    e.getMessage().contains("after extended public key")
                            && e.getMessage().contains("private key"),
                    e.getMessage());
        } else if (valid) {
            Descriptor parsed = Descriptor.parse(d, BitcoinNetwork.MAINNET);
            if (!key.endsWith("*h")) {
                assertEquals(
                        parsed.derive(0, 7).script(),
                        Descriptor.parse(parsed.toString(), BitcoinNetwork.MAINNET)
                                .derive(0, 7)
                                .script());
            }
        } else {
            assertThrows(DescriptorException.class, () -> Descriptor.parse(d, BitcoinNetwork.MAINNET));
        }
    }
}
