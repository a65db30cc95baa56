package org.blockfilter.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The commands docs/server.md shows for several processes on one index parse as the server parses them and listen on
 * ports no other of them takes (the example once gave the secondary {@code --port 8158}, the primary's default P2P
 * port, and failed with "Port already in use").
 */
class ServerDocsExampleTest {
    private static final Path SERVER_MD = Path.of("../docs/server.md");
    private static final String SECTION = "## Several processes on one index";
    private static final String COMMAND = "java -jar server/target/blockfilter-server.jar";

    /** The server commands of the section's first code block, continuation lines joined, comments dropped. */
    static List<String[]> commands(String markdown, String section) {
        int start = markdown.indexOf(section);
        assertTrue(start >= 0, "no section '" + section + "'");
        int open = markdown.indexOf("```", start);
        int body = markdown.indexOf('\n', open) + 1;
        int close = markdown.indexOf("```", body);
        List<String[]> commands = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : markdown.substring(body, close).split("\n")) {
            String code = line.replaceAll("\\s+#.*$", "").strip();
            boolean continued = code.endsWith("\\");
            current.append(' ').append(continued ? code.substring(0, code.length() - 1) : code);
            if (!continued) {
                String cmd = current.toString().strip();
                if (cmd.startsWith(COMMAND)) {
                    String args = cmd.substring(COMMAND.length()).strip();
                    commands.add(args.isEmpty() ? new String[0] : args.split("\\s+"));
                }
                current.setLength(0);
            }
        }
        return commands;
    }

    /**
     * The TCP ports a server started with these options listens on, off mainnet: HTTP unless {@code --no-http}, P2P
     * unless {@code --no-p2p}; a read-only secondary serves HTTP only (it listens for P2P only where --p2p-port says).
     */
    static List<Integer> ports(String[] args) {
        ServerMain main = new ServerMain();
        new CommandLine(main).parseArgs(args);
        List<Integer> ports = new ArrayList<>();
        if (!main.options.noHttp && !main.options.exitWhenSynced) {
            ports.add(main.options.port);
        }
        if (!main.options.readOnlySecondary && !main.options.noP2p) {
            ports.add(main.options.p2pPort != null ? main.options.p2pPort : ServerMain.DEFAULT_P2P_PORT);
        }
        return ports;
    }

    @Test
    void severalProcessesExampleListensOnDistinctPorts() throws IOException {
        List<String[]> commands = commands(Files.readString(SERVER_MD), SECTION);
        assertEquals(2, commands.size(), "a primary and a secondary");
        assertTrue(Arrays.asList(commands.get(1)).contains("--read-only-secondary"));
        Map<Integer, String> taken = new HashMap<>();
        for (String[] args : commands) {
            for (int port : ports(args)) {
                String other = taken.put(port, String.join(" ", args));
                assertTrue(
                        other == null,
                        "port " + port + " taken by both '" + other + "' and '" + String.join(" ", args) + "'");
            }
        }
    }

    @Test
    void portsFollowTheServersDefaults() {
        assertEquals(List.of(ServerMain.DEFAULT_PORT, ServerMain.DEFAULT_P2P_PORT), ports(new String[0]));
        assertEquals(List.of(9000, 9001), ports(new String[] {"--port", "9000", "--p2p-port", "9001"}));
        assertEquals(List.of(9000), ports(new String[] {"--port", "9000", "--read-only-secondary"}));
        assertEquals(List.of(ServerMain.DEFAULT_PORT), ports(new String[] {"--no-p2p"}));
        assertEquals(List.of(ServerMain.DEFAULT_P2P_PORT), ports(new String[] {"--no-http"}));
    }
}
