package org.blockfilter.wallet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.psbt.Psbt;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PSBT commands through the CLI: the offline signing round, and each bad input with its message. */
class PsbtCommandsTest {
    @TempDir
    Path dir;

    private final RegtestChainBuilder chain = new RegtestChainBuilder();

    /** The test wallet ({@code dir/wallet.json}) with one confirmed P2WPKH coin. */
    private Path funded() {
        LightWallet w = TestWallets.create(dir);
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(
                List.of(w.keys()
                        .account(AddressKind.P2WPKH)
                        .orElseThrow()
                        .derive(false, 0)
                        .address()),
                Coin.CENT)));
        new SyncEngine(w, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();
        return w.file();
    }

    private InProcessCli.Run run(Path wallet, String... args) throws Exception {
        return InProcessCli.run(InProcessCli.walletArgs(dir, wallet, args));
    }

    private Path unsigned(Path wallet) throws Exception {
        Path psbt = dir.resolve("unsigned.psbt");
        InProcessCli.Run r = run(
                wallet,
                "send",
                "--to",
                chain.minerAddress().toString(),
                "--amount",
                "0.001",
                "--fee-rate",
                "2",
                "--psbt-out",
                psbt.toString());
        assertEquals(0, r.code(), r.err());
        return psbt;
    }

    @Test
    void sendWritesAPsbtThatSignAndFinalizeComplete() throws Exception {
        Path w = funded();
        Path psbt = unsigned(w);
        assertTrue(Files.readAllBytes(psbt)[4] == (byte) 0xff, "a .psbt file is binary");
        Path signed = dir.resolve("signed.txt");
        InProcessCli.Run s = run(w, "sign", psbt.toString(), "--out", signed.toString(), "--yes");
        assertEquals(0, s.code(), s.err());
        assertTrue(s.out().contains("\"signatures\" : 1"), s.out());
        Psbt.fromBase64(Files.readString(signed)); // a name without .psbt gets Base64 text
        InProcessCli.Run f = run(w, "finalize", signed.toString());
        assertEquals(0, f.code(), f.err());
        assertTrue(f.out().contains("\"complete\" : true"), f.out());
    }

    @Test
    void aFileThatIsNotAPsbtIsNamedWithTheOffset() throws Exception {
        Path w = funded();
        Path junk = dir.resolve("junk.txt");
        Files.writeString(junk, "cHNidP8BAHUCAAAAASaBcTce3/KF");
        InProcessCli.Run r = run(w, "finalize", junk.toString());
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("error: " + junk + ": global map"), r.err());
        assertTrue(r.err().contains("(at byte "), r.err());
        Files.writeString(junk, "not base64 at all!");
        InProcessCli.Run b = run(w, "sign", junk.toString(), "--yes");
        assertTrue(b.err().contains(junk + ": not Base64"), b.err());
    }

    @Test
    void finalizeAndBroadcastSayWhatIsMissing() throws Exception {
        Path w = funded();
        Path psbt = unsigned(w);
        InProcessCli.Run f = run(w, "finalize", psbt.toString());
        assertEquals(1, f.code());
        assertTrue(f.out().contains("input 0 has no signature yet"), f.out());
        InProcessCli.Run b = run(w, "broadcast", psbt.toString(), "--server", "http://127.0.0.1:9");
        assertEquals(1, b.code());
        assertTrue(b.err().contains("input 0 is not finalized"), b.err());
    }

    @Test
    void combineRefusesAnotherTransactionNamingTheFile() throws Exception {
        Path w = funded();
        Path a = unsigned(w);
        Path b = dir.resolve("other.psbt");
        Files.write(
                b,
                Psbt.decode(java.util.HexFormat.of().parseHex("70736274ff01000a0000000000000000000000"))
                        .serialize());
        InProcessCli.Run r = run(
                w,
                "combine",
                a.toString(),
                b.toString(),
                "--out",
                dir.resolve("c.psbt").toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains(b + ": cannot combine PSBTs of different transactions"), r.err());
    }

    @Test
    void signingAsksFirstAndAWatchOnlyWalletCannotSign() throws Exception {
        Path w = funded();
        Path psbt = unsigned(w);
        InProcessCli.Run ask = run(w, "sign", psbt.toString());
        assertEquals(1, ask.code());
        assertTrue(ask.err().contains("pay 0.001 BTC to " + chain.minerAddress()), ask.err());
        assertTrue(ask.err().contains("not signed: confirm with --yes"), ask.err());
        String xpub = LightWallet.load(w)
                .keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .extendedPublicKey();
        Path watch = dir.resolve("watch.json");
        assertEquals(
                0,
                run(watch, "watch", "--xpub", xpub, "--seal", "none", "--birthday", "0")
                        .code());
        InProcessCli.Run r = run(watch, "sign", psbt.toString(), "--yes");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("this wallet is watch-only"), r.err());
    }
}
