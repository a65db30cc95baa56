package org.blockfilter.filters;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FilterDemoTest {

    private static String run(List<String> args) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FilterDemo.run(args.toArray(String[]::new), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void defaultBlockIsTheTestnetGenesisOfTheFirstVectorRow() throws IOException {
        Vectors.BlockFilterRow genesis = Vectors.blockFilters().get(0);
        String out = run(List.of());
        assertTrue(out.contains("filter       " + genesis.filterHex()), out);
        assertTrue(out.contains("header       " + genesis.header()), out);
    }

    @Test
    void buildsAVectorBlockFromHexWithPrevScriptsAndMatchesItsScripts() throws IOException {
        Vectors.BlockFilterRow row = Vectors.blockFilters().stream()
                .filter(r -> r.height() == 926485)
                .findFirst()
                .orElseThrow();
        List<String> args = new ArrayList<>(List.of(
                "--block", row.blockHex(), "--prev-header", row.prevHeader().toString()));
        for (String prev : row.prevScriptsHex()) {
            args.add("--prev");
            args.add(prev);
        }
        String member = row.prevScriptsHex().get(0);
        args.add(member);
        String out = run(args);
        assertTrue(out.contains("N            9"), out);
        assertTrue(out.contains("filter       " + row.filterHex()), out);
        assertTrue(out.contains("header       " + row.header()), out);
        assertTrue(out.contains("match        " + member + "  yes"), out);
    }

    @Test
    void badHexIsAnArgumentError() {
        assertThrows(IllegalArgumentException.class, () -> run(List.of("--block", "zz")));
        assertThrows(IllegalArgumentException.class, () -> run(List.of("--block", "00")));
        assertThrows(IllegalArgumentException.class, () -> run(List.of("--nope")));
    }
}
