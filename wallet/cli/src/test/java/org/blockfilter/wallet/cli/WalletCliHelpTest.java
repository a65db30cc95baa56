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

    @org.junit.jupiter.api.Test
    void rootHelpNamesThePassphraseVariableAndTheExitCodes() {
        // Help text is wrapped at the terminal width: compare without whitespace.
        String usage = InProcessCli.run("--help").out().replaceAll("\\s+", "");
        assertTrue(usage.contains("BLOCKFILTER_PASSPHRASE"), usage);
        assertTrue(usage.contains("--passphrase-file"), usage);
        for (String code :
                List.of("0 success", "1 bad input", "2 sync stopped", "3 network failure", "4 the payment")) {
            assertTrue(usage.contains(code.replace(" ", "")), code + " in:\n" + usage);
        }
    }

    @org.junit.jupiter.api.Test
    void watchHelpOffersOnlyTheOptionsWatchTakes() {
        String watch = InProcessCli.run("watch", "--help").out();
        assertFalse(watch.contains("--kinds"), watch);
        assertFalse(watch.contains("secret-only"), watch);
        assertTrue(watch.contains("--kind="), watch);
        assertTrue(watch.contains("--seal=all|none"), watch);
        String create = InProcessCli.run("create", "--help").out();
        assertTrue(create.contains("--kinds"), create);
        assertTrue(create.contains("--seal=all|secret-only"), create);
    }

    @org.junit.jupiter.api.Test
    void serverHelpSuggestsTheServersDefaultPort() {
        for (String command : List.of("sync", "send", "verify")) {
            String usage = InProcessCli.run(command, "--help").out().replaceAll("\\s+", "");
            assertTrue(usage.contains("http://127.0.0.1:8157"), usage);
            assertFalse(usage.contains("8080"), usage);
        }
    }
}
