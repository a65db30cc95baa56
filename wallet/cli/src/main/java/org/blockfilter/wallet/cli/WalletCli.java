package org.blockfilter.wallet.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.source.NotAcceptedException;
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.store.PassphraseRequiredException;
import org.blockfilter.wallet.sync.SourceFault;
import org.blockfilter.wallet.sync.SyncException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The light wallet's command line. Every command reads and writes one wallet file
 * ({@code --wallet}); sync and send talk to {@code --server} URLs (our REST API) and/or
 * {@code --peer host:port} (BIP 157 P2P). The passphrase comes from {@code --passphrase-file},
 * the {@code BLOCKFILTER_PASSPHRASE} environment variable, or a console prompt; a wallet sealed
 * whole ({@code --seal all}, the default) needs it for every command.
 *
 * <p>Exit codes (also in {@code --help}): 0 success, 1 bad input or refused operation (also a
 * missing or wrong passphrase, a damaged or locked wallet file), 2 sync stopped (no honest source
 * or an unsettled dispute), 3 network failure, 4 a payment not accepted.
 */
@Command(
        name = "blockfilter-wallet",
        mixinStandardHelpOptions = true,
        version = "blockfilter-wallet 0.1",
        description = "A BIP 157/158 light wallet that matches compact block filters locally.",
        footer = {
            "",
            "Passphrase: from --passphrase-file, else the " + WalletCli.PASSPHRASE_ENV + " environment variable,"
                    + " else a console prompt. A wallet sealed whole (--seal all, the default) needs it for every"
                    + " command; otherwise create, restore, send, bump and reseal --seal all ask for it.",
            "",
            "Exit codes: 0 success; 1 bad input or a refused operation (a missing or wrong passphrase, a damaged or"
                    + " locked wallet file, sources of another network); 2 sync stopped (a source lied or is on a"
                    + " weaker chain, or a dispute could not be settled); 3 network failure (no source answered);"
                    + " 4 the payment was not accepted (nothing recorded, its coins stay spendable)."
        },
        subcommands = {
            CreateCommand.class,
            RestoreCommand.class,
            WatchCommand.class,
            ReceiveCommand.class,
            SyncCommand.class,
            VerifyCommand.class,
            RescanCommand.class,
            BalanceCommand.class,
            HistoryCommand.class,
            SendCommand.class,
            BumpCommand.class,
            AbandonCommand.class,
            SignCommand.class,
            CombineCommand.class,
            FinalizeCommand.class,
            BroadcastCommand.class,
            ResealCommand.class,
            ExportDescriptorsCommand.class,
            UtxosCommand.class,
            ExportLabelsCommand.class,
            ImportLabelsCommand.class
        })
public final class WalletCli {
    static final String PASSPHRASE_ENV = "BLOCKFILTER_PASSPHRASE";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Option(names = "--wallet", description = "wallet file (default: ${DEFAULT-VALUE})", defaultValue = "wallet.json")
    Path wallet;

    @Option(
            names = "--network",
            description =
                    "mainnet, testnet3 (or testnet), testnet4, signet or regtest (default: ${DEFAULT-VALUE}); used by"
                            + " create/restore/watch, recorded in the wallet file",
            defaultValue = "regtest")
    String network;

    @Option(names = "--json", description = "machine-readable JSON on stdout")
    boolean json;

    @Option(names = "--passphrase-file", description = "file holding the passphrase (first line)")
    Path passphraseFile;

    PrintStream out = System.out;
    PrintStream err = System.err;
    /** The passphrase once read, so one command never prompts twice (file key, then mnemonic). */
    private char[] passphrase;

    public static void main(String[] args) {
        // stdout carries only the command's answer (pure JSON with --json): anything a library
        // prints or logs to System.out goes to stderr instead.
        PrintStream answer = System.out;
        System.setOut(System.err);
        System.exit(run(args, answer, System.err));
    }

    /** Runs the CLI with the given streams; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        WalletCli cli = new WalletCli();
        cli.out = out;
        cli.err = err;
        CommandLine cmd = new CommandLine(cli);
        cmd.setOut(new java.io.PrintWriter(out, true));
        cmd.setErr(new java.io.PrintWriter(err, true));
        cmd.setExecutionExceptionHandler((e, c, parsed) -> {
            err.println("error: " + e.getMessage());
            if (e instanceof SyncException se) {
                // A liar, a weaker chain or an undecidable dispute stops the sync (2); sources of another
                // network are the wrong sources (1); every source unreachable or failing is a network failure (3).
                List<SourceFault.Kind> kinds =
                        se.faults().stream().map(SourceFault::kind).toList();
                if (kinds.isEmpty()
                        || kinds.contains(SourceFault.Kind.LIED)
                        || kinds.contains(SourceFault.Kind.WEAKER_CHAIN)) {
                    return 2;
                }
                return kinds.contains(SourceFault.Kind.OTHER_NETWORK) ? 1 : 3;
            }
            if (e instanceof NotAcceptedException) {
                return 4; // the payment was not accepted: nothing recorded, its coins stay spendable
            }
            if (e instanceof SourceException) {
                return 3;
            }
            return 1;
        });
        return cmd.execute(args);
    }

    Chain network() {
        return Chain.fromName(network);
    }

    /** The wallet, asking for the passphrase only when the file is sealed whole. */
    LightWallet load() {
        try {
            return LightWallet.load(wallet);
        } catch (PassphraseRequiredException e) {
            char[] p;
            try {
                p = passphrase(false);
            } catch (IllegalArgumentException none) {
                throw new IllegalArgumentException(e.getMessage() + "; " + none.getMessage(), none);
            }
            return LightWallet.load(wallet, p);
        }
    }

    char[] passphrase(boolean confirm) {
        if (passphrase == null) {
            passphrase = readPassphrase(confirm);
        }
        return passphrase;
    }

    private char[] readPassphrase(boolean confirm) {
        try {
            if (passphraseFile != null) {
                List<String> lines = Files.readAllLines(passphraseFile, StandardCharsets.UTF_8);
                if (lines.isEmpty() || lines.get(0).isEmpty()) {
                    throw new IllegalArgumentException("passphrase file " + passphraseFile + " is empty");
                }
                return lines.get(0).toCharArray();
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read passphrase file: " + e.getMessage(), e);
        }
        String env = System.getenv(PASSPHRASE_ENV);
        if (env != null && !env.isEmpty()) {
            return env.toCharArray();
        }
        Console console = System.console();
        if (console == null) {
            throw new IllegalArgumentException(
                    "no passphrase: use --passphrase-file or " + PASSPHRASE_ENV + " (no console to prompt)");
        }
        char[] p = console.readPassword("Passphrase: ");
        if (confirm && !java.util.Arrays.equals(p, console.readPassword("Repeat passphrase: "))) {
            throw new IllegalArgumentException("passphrases differ");
        }
        return p;
    }

    void print(Map<String, ?> jsonValue, String human) {
        if (json) {
            try {
                out.println(JSON.writeValueAsString(jsonValue));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        } else {
            out.println(human);
        }
    }

    /** A txid as the user typed it: 64 hex digits (display order). */
    static org.bitcoinj.base.Sha256Hash txid(String s) {
        if (s == null || !s.matches("[0-9a-fA-F]{64}")) {
            throw new IllegalArgumentException(
                    "TXID must be 64 hex digits, got " + (s == null ? "nothing" : s.length() + " characters"));
        }
        return org.bitcoinj.base.Sha256Hash.wrap(s.toLowerCase(java.util.Locale.ROOT));
    }

    static AddressKind kind(String s) {
        try {
            return AddressKind.valueOf(s.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown address kind " + s + "; use p2wpkh, p2pkh, p2tr, p2sh-p2wpkh, p2wsh or p2sh-p2wsh");
        }
    }

    /** An outpoint as the user typed it: {@code TXID:VOUT}. */
    static org.bitcoinj.core.TransactionOutPoint outpoint(String s) {
        int colon = s == null ? -1 : s.indexOf(':');
        if (colon < 0 || !s.substring(colon + 1).matches("[0-9]{1,9}")) {
            throw new IllegalArgumentException("a coin is TXID:VOUT (e.g. " + "ab".repeat(32) + ":0), got " + s);
        }
        return new org.bitcoinj.core.TransactionOutPoint(
                Long.parseLong(s.substring(colon + 1)), txid(s.substring(0, colon)));
    }

    /**
     * The birthday from {@code --birthday DATE|HEIGHT} (or the older {@code --birthday-height} /
     * {@code --birthday-date}); {@code fallback} when none is given.
     */
    static LightWallet.Birthday birthday(
            String birthday, Integer height, String date, java.util.function.Supplier<LightWallet.Birthday> fallback) {
        int given = (birthday != null ? 1 : 0) + (height != null ? 1 : 0) + (date != null ? 1 : 0);
        if (given > 1) {
            throw new IllegalArgumentException("give one of --birthday, --birthday-height, --birthday-date");
        }
        if (birthday != null && birthday.matches("[0-9]{1,9}")) {
            height = Integer.parseInt(birthday);
        } else if (birthday != null) {
            date = birthday;
        }
        if (date != null) {
            try {
                return LightWallet.Birthday.ofTime(
                        LocalDate.parse(date).atStartOfDay().toEpochSecond(ZoneOffset.UTC));
            } catch (java.time.format.DateTimeParseException e) {
                throw new IllegalArgumentException("--birthday must be a height or a date YYYY-MM-DD, got " + date);
            }
        }
        return height == null ? fallback.get() : LightWallet.Birthday.ofHeight(height);
    }

    /** A restored or watched wallet's default birthday: the earliest height its kinds could have been paid. */
    LightWallet.Birthday safeBirthday(java.util.Collection<AddressKind> kinds) {
        return LightWallet.Birthday.ofHeight(org.blockfilter.wallet.ChainStart.safeBirthday(network(), kinds));
    }
}
