package org.blockfilter.wallet.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.ledger.WalletTx;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real JVM processes on one wallet file (the child runs {@link Child} from the test
 * classpath). Before the fix a save wrote the process's own old copy over whatever another process
 * had saved since (the pending transaction of a {@code send} disappeared after a concurrent
 * {@code sync} saved), concurrent saves collided on the shared {@code .tmp} file, and nothing
 * stopped a second writer.
 */
class WalletFileProcessesTest {
    @TempDir
    Path dir;

    /** What the child process does, by its first argument; it talks over stdin/stdout lines. */
    public static final class Child {
        public static void main(String[] args) throws IOException {
            Path file = Paths.get(args[1]);
            // A plain file ignores the passphrase; a sealed one is opened with it (once per process).
            char[] passphrase = TestWallets.PASSPHRASE;
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            switch (args[0]) {
                case "load-wait-save" -> {
                    // Like a sync: loaded before the other process's send, saves its own progress after it.
                    LightWallet w = LightWallet.load(file, passphrase);
                    System.out.println("loaded");
                    System.out.flush();
                    in.readLine();
                    w.keys().nextReceive(AddressKind.P2PKH);
                    w.save();
                    System.out.println("saved");
                }
                case "hold-lock" -> {
                    try (WalletFile.Lock ignored = WalletFile.lock(file, Duration.ofSeconds(30))) {
                        System.out.println("locked");
                        System.out.flush();
                        in.readLine();
                    }
                }
                case "receive" -> {
                    AddressKind kind = AddressKind.valueOf(args[2]);
                    for (int i = 0; i < Integer.parseInt(args[3]); i++) {
                        LightWallet w = LightWallet.load(file, passphrase);
                        w.keys().nextReceive(kind);
                        w.save();
                    }
                    System.out.println("done");
                }
                default -> throw new IllegalArgumentException(args[0]);
            }
            System.out.flush();
        }
    }

    private static Process child(String... args) throws IOException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(
                List.of(java, "-cp", System.getProperty("java.class.path"), Child.class.getName()));
        cmd.addAll(List.of(args));
        // stderr to a file beside the wallet: bitcoinj's logging notice must not mix with the protocol lines.
        Path err = Path.of(args[1]).resolveSibling("child-" + System.nanoTime() + ".err");
        return new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    }

    private static String line(Process p) throws IOException {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
    }

    private static void tell(Process p) throws IOException {
        Writer w = new java.io.OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
        w.write("go\n");
        w.flush();
    }

    private static int exit(Process p) throws InterruptedException {
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child finished");
        return p.exitValue();
    }

    private static WalletTx pendingPayment(LightWallet w) {
        Transaction tx = new Transaction();
        tx.addInput(Sha256Hash.of(new byte[] {7}), 0, ScriptBuilder.createEmpty());
        tx.addOutput(
                Coin.COIN,
                ScriptBuilder.createOutputScript(w.keys()
                        .account(AddressKind.P2WPKH)
                        .orElseThrow()
                        .derive(true, 0)
                        .address()));
        return WalletTx.of(tx, WalletTx.PENDING, null);
    }

    @Test
    void aSaveByAnotherProcessThatLoadedEarlierDoesNotLoseThePendingSend() throws Exception {
        loadWaitSaveKeepsThePendingSend(TestWallets.create(dir));
    }

    @Test
    void aSealedWalletSavedByAnotherProcessThatLoadedEarlierKeepsThePendingSend() throws Exception {
        LightWallet w = TestWallets.createSealed(dir);
        assertEquals(Sealing.ALL, w.sealing());
        loadWaitSaveKeepsThePendingSend(w);
        assertEquals(
                Sealing.ALL, LightWallet.load(w.file(), TestWallets.PASSPHRASE).sealing(), "still sealed whole");
    }

    private void loadWaitSaveKeepsThePendingSend(LightWallet w) throws Exception {
        Process sync = child("load-wait-save", w.file().toString());
        assertEquals("loaded", line(sync));

        WalletTx sent = pendingPayment(w); // what `send --yes` records after broadcasting
        w.ledger().put(sent);
        w.save();
        tell(sync);
        assertEquals(0, exit(sync));

        LightWallet after = LightWallet.load(w.file(), TestWallets.PASSPHRASE);
        assertTrue(after.ledger().get(sent.txid()).isPresent(), "the pending send survived the other save");
        assertEquals(1, after.keys().chainState(AddressKind.P2PKH, false).issued(), "and the other save is there");
    }

    @Test
    void aSecondProcessWaitsForTheLockThenFailsNamingTheFile() throws Exception {
        LightWallet w = TestWallets.create(dir);
        Process holder = child("hold-lock", w.file().toString());
        assertEquals("locked", line(holder));

        WalletFileException e = assertThrows(
                WalletFileException.class, () -> WalletFile.update(w.file(), c -> c, Duration.ofMillis(300)));
        assertTrue(e.getMessage().contains(w.file().toAbsolutePath().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("in use by another process"), e.getMessage());
        assertTrue(!e.getMessage().contains(".tmp"), e.getMessage());

        tell(holder);
        assertEquals(0, exit(holder));
        w.keys().nextReceive(AddressKind.P2WPKH);
        w.save(); // free again
        assertEquals(
                1,
                LightWallet.load(w.file())
                        .keys()
                        .chainState(AddressKind.P2WPKH, false)
                        .issued());
    }

    @Test
    void twoProcessesSavingAtOnceBothSucceedAndNeitherLosesAnUpdate() throws Exception {
        twoProcessesSaveAtOnce(TestWallets.create(dir));
    }

    @Test
    void twoProcessesSavingASealedWalletAtOnceBothSucceedAndNeitherLosesAnUpdate() throws Exception {
        twoProcessesSaveAtOnce(TestWallets.createSealed(dir));
    }

    private void twoProcessesSaveAtOnce(LightWallet w) throws Exception {
        Process a = child("receive", w.file().toString(), "P2WPKH", "25");
        Process b = child("receive", w.file().toString(), "P2PKH", "25");
        assertEquals("done", line(a));
        assertEquals("done", line(b));
        assertEquals(0, exit(a));
        assertEquals(0, exit(b));

        LightWallet after = LightWallet.load(w.file(), TestWallets.PASSPHRASE);
        assertEquals(25, after.keys().chainState(AddressKind.P2WPKH, false).issued());
        assertEquals(25, after.keys().chainState(AddressKind.P2PKH, false).issued());
    }
}
