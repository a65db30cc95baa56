package org.blockfilter.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * {@code --help} on the server CLI and on every subcommand it has (none today; the walk picks up
 * any added later) prints its usage and exits 0 without starting anything.
 */
class ServerMainHelpTest {
    /** The root (empty path) and every subcommand path, breadth first from the picocli model. */
    static Stream<List<String>> commandPaths() {
        List<List<String>> paths = new ArrayList<>();
        Deque<Map.Entry<List<String>, CommandLine>> todo = new ArrayDeque<>();
        todo.add(Map.entry(List.of(), new CommandLine(new ServerMain())));
        while (!todo.isEmpty()) {
            Map.Entry<List<String>, CommandLine> next = todo.removeFirst();
            paths.add(next.getKey());
            for (CommandLine sub :
                    new LinkedHashSet<>(next.getValue().getSubcommands().values())) {
                List<String> path = new ArrayList<>(next.getKey());
                path.add(sub.getCommandName());
                todo.addLast(Map.entry(path, sub));
            }
        }
        return paths.stream();
    }

    @ParameterizedTest(name = "{0} --help")
    @MethodSource("commandPaths")
    void helpPrintsUsageAndExitsZero(List<String> path) {
        List<String> args = new ArrayList<>(path);
        args.add("--help");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ServerMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
        assertEquals(0, code, err.toString());
        String name = String.join(
                " ",
                Stream.concat(Stream.of("blockfilter-server"), path.stream()).toList());
        assertTrue(out.toString().startsWith("Usage: " + name), out.toString());
        assertTrue(out.toString().contains("-h, --help"), out.toString());
        assertTrue(out.toString().contains("--node"), out.toString());
        assertEquals("", err.toString());
    }
}
