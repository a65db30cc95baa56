package org.blockfilter.wallet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** {@code --help} on the wallet CLI and on every subcommand prints its usage and exits 0. */
class WalletCliHelpTest {
    /** Every command path of the CLI: the root (empty) and each subcommand, walked from the model. */
    static Stream<List<String>> commandPaths() {
        List<List<String>> paths = new ArrayList<>();
        walk(new CommandLine(new WalletCli()), new ArrayList<>(), paths);
        return paths.stream();
    }

    private static void walk(CommandLine cmd, List<String> path, List<List<String>> into) {
        into.add(List.copyOf(path));
        cmd.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandName().equals(name)) { // skip aliases
                List<String> next = new ArrayList<>(path);
                next.add(name);
                walk(sub, next, into);
            }
        });
    }

    @ParameterizedTest(name = "{0} --help")
    @MethodSource("commandPaths")
    void helpPrintsUsageAndExitsZero(List<String> path) {
        List<String> args = new ArrayList<>(path);
        args.add("--help");
        InProcessCli.Run run = InProcessCli.run(args.toArray(String[]::new));
        String usage = run.out();
        String errors = run.err();
        assertEquals(0, run.code(), errors);
        String name = String.join(
                " ",
                Stream.concat(Stream.of("blockfilter-wallet"), path.stream()).toList());
        assertTrue(usage.startsWith("Usage: " + name), usage);
        assertTrue(usage.contains("-h, --help"), usage);
        assertFalse(errors.contains("Unknown option"), errors);
    }

    @org.junit.jupiter.api.Test
    void theWalkFindsEverySubcommand() {
        assertEquals(
                List.of(
                        "create",
                        "restore",
                        "watch",
                        "receive",
                        "sync",
                        "verify",
                        "rescan",
                        "balance",
                        "history",
                        "send",
                        "bump",
                        "abandon",
                        "sign",
                        "combine",
                        "finalize",
                        "broadcast",
                        "reseal",
                        "export-descriptors",
                        "utxos",
                        "export-labels",
                        "import-labels"),
                commandPaths().filter(p -> p.size() == 1).map(p -> p.get(0)).toList());
    }
}
