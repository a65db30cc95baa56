package org.blockfilter.wallet.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.HeaderCheckpoint;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.SyntheticHeaderSource;
import org.blockfilter.wallet.testchain.TestWallets;

/**
 * What the wallet's storage costs on a long chain: a synthetic regtest chain of {@code tip}
 * headers with empty filters ({@link SyntheticHeaderSource}, in memory), a wallet restored with
 * its birthday 5 blocks below the tip. Prints, one line each: the restore (headers from genesis;
 * with {@code --checkpoint H} from a header checkpoint at H instead), bytes on disk, a one-block
 * incremental sync (its time and the bytes written, from {@code /proc/self/io}), and {@code
 * balance} (load plus balance). Uses only API that the one-document wallet also has unless
 * {@code --checkpoint} is given, so the same class runs against a build of that code:
 *
 * <pre>java -Xmx8g -cp OLD_WALLET_CLASSES:wallet/target/test-classes:... HeaderStorageBenchmark 900000</pre>
 *
 * Not a test; a main. See docs/benchmarks.md.
 */
public final class HeaderStorageBenchmark {
    public static void main(String[] args) throws Exception {
        int tip = Integer.parseInt(args[0]);
        Integer checkpoint = args.length > 2 && args[1].equals("--checkpoint") ? Integer.parseInt(args[2]) : null;
        long t0 = System.nanoTime();
        SyntheticHeaderSource src = new SyntheticHeaderSource(tip);
        System.out.printf("chain: %d headers built in %.1f s%n", tip, secs(t0));
        Path dir = Files.createTempDirectory("header-storage-bench");
        try {
            Path file = dir.resolve("wallet.json");
            long w0 = wchar();
            t0 = System.nanoTime();
            LightWallet w = checkpoint == null ? restore(file, tip - 5) : restoreFrom(file, tip - 5, src, checkpoint);
            new SyncEngine(w, List.of(src), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE)).sync();
            System.out.printf(
                    "restore (%s): %.2f s, %d bytes written, lowest header asked %d%n",
                    checkpoint == null ? "from genesis" : "from checkpoint " + checkpoint,
                    secs(t0),
                    wchar() - w0,
                    src.lowestHeaderAsked);
            System.out.printf("on disk: %d bytes%n", du(dir));
            for (int i = 1; i <= 5; i++) {
                src.extend(src.tipHeight() + 1);
                System.gc(); // what a step leaves behind is collected before the next is timed
                w0 = wchar();
                t0 = System.nanoTime();
                LightWallet again = LightWallet.load(file);
                new SyncEngine(
                                again,
                                List.of(src),
                                SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE))
                        .sync();
                System.out.printf(
                        "one-block sync %d (load + sync to %d): %.3f s, %d bytes written%n",
                        i, src.tipHeight(), secs(t0), wchar() - w0);
            }
            for (int i = 1; i <= 5; i++) {
                System.gc();
                t0 = System.nanoTime();
                LightWallet.load(file).ledger().balance(true);
                System.out.printf("balance %d (load + balance): %.3f s%n", i, secs(t0));
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }

    private static LightWallet restore(Path file, int birthday) {
        return NewWallet.create(
                file,
                TestWallets.MNEMONIC,
                TestWallets.PASSPHRASE,
                EnumSet.of(AddressKind.P2WPKH),
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(birthday))
                        .withScryptN(1 << 10));
    }

    private static LightWallet restoreFrom(Path file, int birthday, SyntheticHeaderSource src, int at) {
        return NewWallet.create(
                file,
                TestWallets.MNEMONIC,
                TestWallets.PASSPHRASE,
                EnumSet.of(AddressKind.P2WPKH),
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(birthday))
                        .withScryptN(1 << 10)
                        .withCheckpoints(List.of(new HeaderCheckpoint(at, src.header(at), src.workThrough(at)))));
    }

    private static double secs(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Bytes this process has written through write(2) so far (Linux). */
    private static long wchar() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
            if (line.startsWith("wchar:")) {
                return Long.parseLong(line.substring(6).trim());
            }
        }
        return -1;
    }

    private static long du(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
