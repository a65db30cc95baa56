package org.blockfilter.wallet.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import org.blockfilter.wallet.testchain.SyntheticHeaderSource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync in another JVM killed with SIGKILL at several moments (header appends, filter-header
 * batches, filter batches, the saves between them): after each kill the files load, what they hold
 * is the chain's, and the next sync goes on to the truth.
 */
class KillNineSyncTest {
    private static final int TIP = 60_000;

    @TempDir
    Path dir;

    /** Loads the wallet and syncs it against the synthetic chain of {@code args[1]} headers. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            SyntheticHeaderSource src = new SyntheticHeaderSource(Integer.parseInt(args[1]));
            LightWallet w = LightWallet.load(Path.of(args[0]));
            System.out.println("syncing");
            System.out.flush();
            new SyncEngine(w, List.of(src), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE)).sync();
            System.out.println("done");
        }
    }

    @Test
    void killNineAtAnyMomentLeavesAWalletThatLoadsAndSyncsToTheTruth() throws Exception {
        Path initial = Files.createDirectories(dir.resolve("initial")).resolve("wallet.json");
        NewWallet.create(
                initial,
                TestWallets.MNEMONIC,
                TestWallets.PASSPHRASE,
                EnumSet.of(AddressKind.P2WPKH),
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(TIP - 10_000))
                        .withScryptN(1 << 10));
        SyntheticHeaderSource truth = new SyntheticHeaderSource(TIP);
        // The kill moments are fractions of how long a whole sync takes on this machine, each on a
        // fresh copy of the wallet, so they land inside the sync however fast or loaded the machine is.
        Process calibration = started(copyOf(initial, "calibration"));
        long t0 = System.nanoTime();
        assertTrue(calibration.waitFor(120, TimeUnit.SECONDS));
        long wholeSyncMillis = Math.max(10, (System.nanoTime() - t0) / 1_000_000);
        int killed = 0;
        Path lastKilled = null;
        double[] fractions = {0.05, 0.15, 0.3, 0.45, 0.6, 0.8};
        for (int i = 0; i < fractions.length; i++) {
            Path wallet = copyOf(initial, "kill-" + i);
            Process p = started(wallet);
            // Not synchronisation: the moment of the kill is the variable under test.
            Thread.sleep(Math.max(1, (long) (fractions[i] * wholeSyncMillis)));
            if (p.isAlive()) {
                p.destroyForcibly();
                killed++;
                lastKilled = wallet;
            }
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));

            LightWallet after = LightWallet.load(wallet);
            int tip = after.headers().tipHeight();
            assertEquals(truth.hashAt(tip), after.headers().tipHash(), "the committed tip is the chain's");
            int fh = after.filterHeaders().tipHeight();
            if (fh >= after.filterHeaders().base()) {
                assertEquals(truth.filterHeaderAt(fh), after.filterHeaders().header(fh));
            }
            assertTrue(after.scannedHeight() <= Math.max(fh, after.birthdayHeight() - 1));
        }
        assertTrue(
                killed >= 3,
                "only " + killed + " children were killed before they finished (a whole sync took " + wholeSyncMillis
                        + " ms)");

        LightWallet last = LightWallet.load(lastKilled);
        SyncReport r = new SyncEngine(
                        last, List.of(truth), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE))
                .sync();
        assertEquals(List.of(), r.dropped());
        assertEquals(TIP, last.headers().tipHeight());
        assertEquals(TIP, last.scannedHeight());
        assertEquals(
                truth.filterHeaderAt(TIP),
                LightWallet.load(lastKilled).filterHeaders().header(TIP));
    }

    /** A copy of the wallet document and its record files in a folder of its own. */
    private Path copyOf(Path wallet, String name) throws IOException {
        Path to = Files.createDirectories(dir.resolve(name));
        try (Stream<Path> files = Files.list(wallet.getParent())) {
            for (Path f : files.toList()) {
                if (f.getFileName().toString().startsWith(wallet.getFileName().toString())) {
                    Files.copy(f, to.resolve(f.getFileName()));
                }
            }
        }
        return to.resolve(wallet.getFileName());
    }

    /** A child syncing {@code wallet}, once it has loaded it. */
    private static Process started(Path wallet) throws Exception {
        Process p = child(wallet);
        String first = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertEquals("syncing", first);
        return p;
    }

    private static Process child(Path wallet) throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        Child.class.getName(),
                        wallet.toString(),
                        Integer.toString(TIP))
                .redirectError(wallet.resolveSibling("child-" + System.nanoTime() + ".err")
                        .toFile())
                .start();
    }
}
