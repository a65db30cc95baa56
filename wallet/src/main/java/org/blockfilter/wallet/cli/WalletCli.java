package org.blockfilter.wallet.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Network;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressDecoder;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.DerivedAddress;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.ledger.HistoryEntry;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.spend.PreparedPayment;
import org.blockfilter.wallet.spend.Spender;
import org.blockfilter.wallet.store.PassphraseRequiredException;
import org.blockfilter.wallet.store.SealedSecret;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SourceFault;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncException;
import org.blockfilter.wallet.sync.SyncReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * The light wallet's command line. Every command reads and writes one wallet file
 * ({@code --wallet}); sync and send talk to {@code --server} URLs (our REST API) and/or
 * {@code --peer host:port} (BIP 157 P2P). The passphrase comes from {@code --passphrase-file},
 * the {@code BLOCKFILTER_PASSPHRASE} environment variable, or a console prompt; a wallet sealed
 * whole ({@code --seal all}, the default) needs it for every command.
 *
 * <p>Exit codes: 0 success, 1 bad input or refused operation (also a missing or wrong passphrase,
 * a damaged or locked wallet file), 2 sync stopped (no honest source or an unsettled dispute), 3
 * network failure.
 */
@Command(
        name = "blockfilter-wallet",
        mixinStandardHelpOptions = true,
        version = "blockfilter-wallet 0.1",
        description = "A BIP 157/158 light wallet that matches compact block filters locally.",
        subcommands = {
            WalletCli.Create.class,
            WalletCli.Restore.class,
            WalletCli.Watch.class,
            WalletCli.Receive.class,
            WalletCli.Sync.class,
            WalletCli.Verify.class,
            WalletCli.Rescan.class,
            WalletCli.Balance.class,
            WalletCli.History.class,
            WalletCli.Send.class,
            WalletCli.Reseal.class
        })
public final class WalletCli {
    static final String PASSPHRASE_ENV = "BLOCKFILTER_PASSPHRASE";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Option(names = "--wallet", description = "wallet file (default: ${DEFAULT-VALUE})", defaultValue = "wallet.json")
    Path wallet;

    @Option(
            names = "--network",
            description =
                    "mainnet, testnet, signet or regtest (default: ${DEFAULT-VALUE}); used by create/restore/watch",
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
                // Every source unreachable or failing is a network failure (3), not a stopped sync (2).
                boolean networkOnly = !se.faults().isEmpty()
                        && se.faults().stream().allMatch(f -> f.kind() == SourceFault.Kind.FAILED);
                return networkOnly ? 3 : 2;
            }
            if (e instanceof SourceException) {
                return 3;
            }
            return 1;
        });
        return cmd.execute(args);
    }

    Network network() {
        return BitcoinNetwork.fromString(network)
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown network " + network + "; use " + BitcoinNetwork.strings()));
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

    static AddressKind kind(String s) {
        try {
            return AddressKind.valueOf(s.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown address kind " + s + "; use p2wpkh, p2pkh or p2tr");
        }
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

    abstract static class NewWalletOptions {
        @ParentCommand
        WalletCli cli;

        @Option(names = "--kinds", split = ",", description = "accounts to derive (default: p2wpkh,p2pkh,p2tr)")
        List<String> kinds = List.of("p2wpkh", "p2pkh", "p2tr");

        @Option(
                names = "--gap-limit",
                description = "unused addresses watched past the last used one (default: ${DEFAULT-VALUE})",
                defaultValue = "20")
        int gapLimit;

        @Option(
                names = "--birthday",
                paramLabel = "DATE|HEIGHT",
                description = "first block height, or first day (YYYY-MM-DD, UTC), to scan; the header chain starts at"
                        + " the highest checkpoint at or below it (create: the tip of the first sync; restore and"
                        + " watch: the earliest height the account kinds could have been paid, see docs/wallet.md)")
        String birthday;

        @Option(names = "--birthday-height", hidden = true, description = "same as --birthday HEIGHT")
        Integer birthdayHeight;

        @Option(names = "--birthday-date", hidden = true, description = "same as --birthday DATE")
        String birthdayDate;

        @Option(
                names = "--seal",
                description = "all: the whole file is encrypted, every command needs the passphrase;"
                        + " secret-only: only the mnemonic, so sync runs unattended; none: watch-only, nothing"
                        + " (default: ${DEFAULT-VALUE})",
                defaultValue = "all")
        String seal;

        EnumSet<AddressKind> kindSet() {
            EnumSet<AddressKind> set = EnumSet.noneOf(AddressKind.class);
            kinds.forEach(k -> set.add(kind(k)));
            return set;
        }

        Integer created(LightWallet w, List<String> mnemonic) {
            // Shown, not issued: the next `receive` (P2WPKH by default) gives this same address.
            AddressKind kind = w.keys().account(AddressKind.P2WPKH).isPresent()
                    ? AddressKind.P2WPKH
                    : w.keys().accounts().iterator().next().kind();
            DerivedAddress first = w.keys()
                    .account(kind)
                    .orElseThrow()
                    .derive(false, w.keys().chainState(kind, false).issued());
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("file", w.file().toString());
            j.put("network", cli.network);
            j.put("seal", w.sealing().cliName());
            if (mnemonic != null) {
                j.put("mnemonic", String.join(" ", mnemonic));
            }
            j.put("receiveAddress", first.address().toString());
            String human = "wallet written to " + w.file() + " (--seal "
                    + w.sealing().cliName() + ")\n"
                    + (mnemonic != null
                            ? "mnemonic (write it down; it is shown only now):\n  " + String.join(" ", mnemonic) + "\n"
                            : "")
                    + "first receive address: " + first.address();
            cli.print(j, human);
            return 0;
        }
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description = "Create a wallet with a new BIP 39 mnemonic.")
    static final class Create extends NewWalletOptions implements Callable<Integer> {
        @Override
        public Integer call() {
            List<String> mnemonic = WalletKeys.newMnemonic();
            LightWallet w = LightWallet.create(
                    cli.wallet,
                    cli.network(),
                    mnemonic,
                    cli.passphrase(true),
                    kindSet(),
                    gapLimit,
                    birthday(birthday, birthdayHeight, birthdayDate, LightWallet.Birthday::atTip),
                    SealedSecret.DEFAULT_N,
                    Sealing.parse(seal));
            return created(w, mnemonic);
        }
    }

    @Command(
            name = "restore",
            mixinStandardHelpOptions = true,
            description = "Restore a wallet from a BIP 39 mnemonic (read from --mnemonic-file or stdin).")
    static final class Restore extends NewWalletOptions implements Callable<Integer> {
        @Option(names = "--mnemonic-file", description = "file holding the mnemonic words")
        Path mnemonicFile;

        @Override
        public Integer call() throws IOException {
            String text = mnemonicFile != null
                    ? Files.readString(mnemonicFile, StandardCharsets.UTF_8)
                    : new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("no mnemonic given");
            }
            List<String> words =
                    List.of(text.trim().toLowerCase(java.util.Locale.ROOT).split("\\s+"));
            WalletKeys.checkMnemonic(words);
            LightWallet w = LightWallet.create(
                    cli.wallet,
                    cli.network(),
                    words,
                    cli.passphrase(true),
                    kindSet(),
                    gapLimit,
                    birthday(birthday, birthdayHeight, birthdayDate, () -> cli.safeBirthday(kindSet())),
                    SealedSecret.DEFAULT_N,
                    Sealing.parse(seal));
            return created(w, null);
        }
    }

    @Command(
            name = "watch",
            mixinStandardHelpOptions = true,
            description = "Create a watch-only wallet from an account xpub/tpub/zpub/vpub.")
    static final class Watch extends NewWalletOptions implements Callable<Integer> {
        @Option(names = "--xpub", required = true, description = "account-level extended public key")
        String xpub;

        @Option(
                names = "--kind",
                description = "script type of the account (default: ${DEFAULT-VALUE})",
                defaultValue = "p2wpkh")
        String kind;

        @Override
        public Integer call() {
            Sealing sealing = Sealing.parse(seal);
            LightWallet w = LightWallet.watchOnly(
                    cli.wallet,
                    cli.network(),
                    xpub,
                    kind(kind),
                    gapLimit,
                    birthday(birthday, birthdayHeight, birthdayDate, () -> cli.safeBirthday(EnumSet.of(kind(kind)))),
                    sealing,
                    sealing == Sealing.ALL ? cli.passphrase(true) : null,
                    SealedSecret.DEFAULT_N);
            return created(w, null);
        }
    }

    @Command(name = "receive", mixinStandardHelpOptions = true, description = "Show the next unused receive address.")
    static final class Receive implements Callable<Integer> {
        @ParentCommand
        WalletCli cli;

        @Option(
                names = "--kind",
                description = "p2wpkh, p2pkh or p2tr (default: ${DEFAULT-VALUE})",
                defaultValue = "p2wpkh")
        String kind;

        @Override
        public Integer call() {
            LightWallet w = cli.load();
            DerivedAddress a = w.keys().nextReceive(kind(kind));
            w.save();
            cli.print(
                    Map.of(
                            "address",
                            a.address().toString(),
                            "path",
                            a.relativePath(),
                            "kind",
                            a.kind().name()),
                    a.address().toString());
            return 0;
        }
    }

    abstract static class NetworkOptions {
        @ParentCommand
        WalletCli cli;

        @Option(
                names = "--server",
                description = "REST base URL of a blockfilter server, e.g. http://127.0.0.1:8080 (repeatable)")
        List<String> servers = new ArrayList<>();

        @Option(
                names = "--export",
                description = "base URL of a static export (blockfilter-server export) on any HTTP server (repeatable)")
        List<String> exports = new ArrayList<>();

        @Option(names = "--peer", description = "host:port of a BIP 157 node, e.g. 127.0.0.1:18444 (repeatable)")
        List<String> peers = new ArrayList<>();

        @Option(
                names = "--timeout",
                description = "per-request timeout in seconds (default: ${DEFAULT-VALUE})",
                defaultValue = "30")
        int timeoutSeconds;

        List<ChainSource> open(Network network) {
            return Transports.open(servers, exports, peers, network, Duration.ofSeconds(timeoutSeconds));
        }
    }

    @Command(
            name = "sync",
            mixinStandardHelpOptions = true,
            description = "Sync with the servers/peers: headers, filter headers, filters, matching blocks.")
    static class Sync extends NetworkOptions implements Callable<Integer> {
        @Option(names = "--quiet", description = "no progress bar")
        boolean quiet;

        @Option(
                names = "--fetch-policy",
                paramLabel = "SPEC",
                converter = FetchPolicyConverter.class,
                description = "how matched blocks are downloaded: none, default, or a comma list of spread (each"
                        + " block from one of the sources, by a stable per-wallet hash), decoys=K (0.."
                        + FetchPolicy.MAX_DECOYS + "; per matched block, K seed blocks whose decoy scripts are then"
                        + " followed like the wallet's own; decoy blocks are verified and discarded), clusters=K"
                        + " (0.." + FetchPolicy.MAX_CLUSTERS + "; per matched block, K seed blocks from each of"
                        + " which the input scripts of one multi-input transaction, a common-input cluster, are"
                        + " adopted as decoys, their earlier blocks in the look-back window downloaded too), shuffle"
                        + " (random request order) and jitter=MS (random pause before each block request)."
                        + " Default: ${DEFAULT-VALUE}, chosen by the privacy lab's experiment 8"
                        + " (privacy-lab/results/exp8-fetch-policy); spread needs several --server/--peer/--export.",
                defaultValue = FetchPolicy.DEFAULT_SPEC)
        FetchPolicy fetchPolicy;

        /** What the command does to the wallet before syncing; nothing for a plain sync. */
        void before(LightWallet w) {}

        /** Whether every stored filter header is compared with the sources, not only the stored tip. */
        boolean everyStoredHeader() {
            return false;
        }

        @Override
        public Integer call() {
            LightWallet w = cli.load();
            before(w);
            List<ChainSource> sources = open(w.network());
            try {
                long t0 = System.nanoTime();
                SyncEngine engine = new SyncEngine(w, sources, quiet ? null : new ProgressBar(cli.err), fetchPolicy);
                SyncReport r = everyStoredHeader() ? engine.verifyAndSync() : engine.sync();
                long ms = (System.nanoTime() - t0) / 1_000_000;
                Map<String, Object> j = new LinkedHashMap<>();
                j.put("height", r.tipHeight());
                j.put("filtersScanned", r.filtersScanned());
                j.put("matchedBlocks", r.matchedBlocks());
                j.put("fetchPolicy", r.fetchPolicy().spec());
                j.put("decoyBlocks", r.decoyBlocks());
                j.put("reorgDepth", r.reorgDepth());
                j.put(
                        "balance",
                        w.ledger().spendableBalance(w.headers().tipHeight()).toPlainString());
                j.put(
                        "immature",
                        w.ledger().immatureBalance(w.headers().tipHeight()).toPlainString());
                j.put("millis", ms);
                j.put("sourcesUsed", r.sourcesUsed());
                j.put("dropped", r.dropped().stream().map(SourceFault::toString).toList());
                j.put("rolledBack", r.rollbacks());
                StringBuilder human = new StringBuilder("synced to height " + r.tipHeight() + ": " + r.filtersScanned()
                        + " filters, " + r.matchedBlocks() + " matched blocks, " + r.decoyBlocks() + " decoy blocks ("
                        + r.fetchPolicy().spec() + "), " + ms + " ms; balance "
                        + w.ledger().spendableBalance(w.headers().tipHeight()).toPlainString() + " BTC, immature "
                        + w.ledger().immatureBalance(w.headers().tipHeight()).toPlainString() + " BTC");
                for (SourceFault f : r.dropped()) {
                    human.append("\ndropped ").append(f);
                }
                for (String rb : r.rollbacks()) {
                    human.append("\nrolled back ").append(rb);
                }
                cli.print(j, human.toString());
                return 0;
            } finally {
                sources.forEach(ChainSource::close);
            }
        }
    }

    @Command(
            name = "verify",
            mixinStandardHelpOptions = true,
            description = "Check the wallet file, compare every stored filter header (a sync compares only the"
                    + " stored tip) and the block headers and checkpoints with the given sources, roll back what they"
                    + " contradict and the blocks do not refute, then sync.")
    static final class Verify extends Sync {
        @Override
        boolean everyStoredHeader() {
            return true;
        }
    }

    @Command(
            name = "rescan",
            mixinStandardHelpOptions = true,
            description = "Forget the filter headers and the scan from --from on, fetch them again and rescan; found"
                    + " transactions are kept.")
    static final class Rescan extends Sync {
        @Option(names = "--from", required = true, description = "first block height to fetch and scan again")
        int from;

        @Override
        void before(LightWallet w) {
            if (from < 0) {
                throw new IllegalArgumentException("--from must be >= 0, got " + from);
            }
            w.rescanFrom(from);
        }
    }

    @Command(
            name = "balance",
            mixinStandardHelpOptions = true,
            description = "Confirmed, immature and unconfirmed balance (as of the last sync).")
    static final class Balance implements Callable<Integer> {
        @ParentCommand
        WalletCli cli;

        @Override
        public Integer call() {
            LightWallet w = cli.load();
            int tip = w.headers().tipHeight();
            Coin confirmed = w.ledger().spendableBalance(tip);
            Coin immature = w.ledger().immatureBalance(tip);
            Coin total = w.ledger().balance(false);
            Coin unconfirmed = total.subtract(confirmed).subtract(immature);
            List<Utxo> utxos = w.ledger().utxos(false);
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("confirmed", confirmed.toPlainString());
            j.put("immature", immature.toPlainString());
            j.put("unconfirmedDelta", unconfirmed.toPlainString());
            j.put("total", total.toPlainString());
            j.put("syncedHeight", w.scannedHeight());
            j.put(
                    "utxos",
                    utxos.stream()
                            .map(u -> Map.of(
                                    "outpoint",
                                    u.outpoint().toString(),
                                    "value",
                                    u.value().toPlainString(),
                                    "height",
                                    u.height(),
                                    "spendable",
                                    u.height() >= 0 && u.matureAt(tip)))
                            .toList());
            cli.print(
                    j,
                    "confirmed " + confirmed.toPlainString() + " BTC, immature " + immature.toPlainString()
                            + " BTC (coinbase, " + Utxo.COINBASE_MATURITY + " confirmations needed), unconfirmed "
                            + unconfirmed.toPlainString() + " BTC (synced to height " + w.scannedHeight() + ", "
                            + utxos.size() + " coins)");
            return 0;
        }
    }

    @Command(
            name = "history",
            mixinStandardHelpOptions = true,
            description = "The wallet's transactions, oldest first.")
    static final class History implements Callable<Integer> {
        @ParentCommand
        WalletCli cli;

        @Override
        public Integer call() {
            LightWallet w = cli.load();
            List<HistoryEntry> h = w.ledger().history();
            List<Map<String, Object>> rows = new ArrayList<>();
            StringBuilder human = new StringBuilder();
            for (HistoryEntry e : h) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("txid", e.txid().toString());
                row.put("height", e.height());
                row.put("net", e.net().toPlainString());
                row.put("fee", e.fee() == null ? null : e.fee().toPlainString());
                rows.add(row);
                human.append(String.format(
                        "%8s  %s  %s BTC%s%n",
                        e.height() < 0 ? "pending" : e.height(),
                        e.txid(),
                        e.net().toPlainString(),
                        e.fee() == null ? "" : " (fee " + e.fee().toPlainString() + ")"));
            }
            cli.print(
                    Map.of("transactions", rows),
                    h.isEmpty() ? "no transactions" : human.toString().stripTrailing());
            return 0;
        }
    }

    @Command(
            name = "send",
            mixinStandardHelpOptions = true,
            description = "Pay an address: shows the fee, asks to confirm (or --yes), signs and broadcasts.")
    static final class Send extends NetworkOptions implements Callable<Integer> {
        @Option(names = "--to", required = true, description = "recipient address")
        String to;

        @Option(names = "--amount", required = true, description = "amount in BTC, e.g. 0.015")
        BigDecimal amount;

        @Option(names = "--fee-rate", required = true, description = "fee rate in sat/vB")
        long feeRate;

        @Option(names = "--yes", description = "send without asking")
        boolean yes;

        @Override
        public Integer call() {
            LightWallet w = cli.load();
            Address address = AddressDecoder.decode(to, w.network());
            Coin value;
            try {
                value = Coin.valueOf(amount.movePointRight(8).longValueExact());
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("amount has more than 8 decimals: " + amount);
            }
            WalletKeys unlocked = w.unlock(cli.passphrase(false));
            Spender spender = new Spender(w);
            PreparedPayment p = spender.prepare(unlocked, address, value, feeRate);
            String summary = "pay " + p.amount().toPlainString() + " BTC to " + p.recipient() + "\nfee "
                    + p.fee().toPlainString()
                    + " BTC (" + p.vsize() + " vB, " + String.format("%.2f", p.effectiveSatPerVByte()) + " sat/vB), "
                    + p.inputs() + " input(s), change "
                    + (p.changeAddress() == null
                            ? "none (dust folded into fee)"
                            : p.change().toPlainString() + " BTC to " + p.changeAddress());
            if (!yes) {
                Console console = System.console();
                if (console == null) {
                    cli.err.println(summary);
                    throw new IllegalArgumentException("not sent: confirm with --yes when there is no console");
                }
                String answer = console.readLine("%s%nSend? [y/N] ", summary);
                if (answer == null || !answer.trim().equalsIgnoreCase("y")) {
                    cli.err.println("not sent");
                    return 1;
                }
            }
            List<ChainSource> sources = open(w.network());
            try {
                spender.broadcast(p, sources);
            } finally {
                sources.forEach(ChainSource::close);
            }
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("txid", p.txid().toString());
            j.put("amount", p.amount().toPlainString());
            j.put("fee", p.fee().toPlainString());
            j.put("vsize", p.vsize());
            j.put("change", p.change().toPlainString());
            cli.print(j, summary + "\nsent " + p.txid());
            return 0;
        }
    }

    @Command(
            name = "reseal",
            mixinStandardHelpOptions = true,
            description = "Rewrite the wallet file sealed another way: all (the whole file), secret-only (the"
                    + " mnemonic only) or none (watch-only wallets). Sealing whole uses the wallet's passphrase.")
    static final class Reseal implements Callable<Integer> {
        @ParentCommand
        WalletCli cli;

        @Option(names = "--seal", required = true, description = "all, secret-only or none")
        String seal;

        @Override
        public Integer call() {
            Sealing target = Sealing.parse(seal);
            LightWallet w = cli.load();
            Sealing before = w.sealing();
            if (before == target) {
                cli.print(
                        Map.of("file", w.file().toString(), "seal", target.cliName(), "changed", false),
                        "wallet " + w.file() + " is already --seal " + target.cliName() + "; nothing to do");
                return 0;
            }
            // A watch-only wallet has no mnemonic to check the passphrase against: ask twice.
            w.reseal(target, target == Sealing.ALL ? cli.passphrase(w.watchOnly()) : null, SealedSecret.DEFAULT_N);
            cli.print(
                    Map.of("file", w.file().toString(), "seal", target.cliName(), "changed", true),
                    "wallet " + w.file() + " resealed: --seal " + before.cliName() + " -> " + target.cliName());
            return 0;
        }
    }

    /** Parses {@code --fetch-policy}; a bad spec is a usage error naming the bad item. */
    static final class FetchPolicyConverter implements CommandLine.ITypeConverter<FetchPolicy> {
        @Override
        public FetchPolicy convert(String value) {
            try {
                return FetchPolicy.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
