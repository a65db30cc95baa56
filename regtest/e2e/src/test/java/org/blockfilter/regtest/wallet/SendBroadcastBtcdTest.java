package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.cli.WalletCli;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.store.ChainFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's {@code send} against btcd: over P2P alone (announce, serve the getdata, btcd holds it)
 * the payment is reported sent and confirms; over REST through a node with bcoin's habit of
 * answering {@code sendrawtransaction} with the txid of a transaction it then refuses, the payment
 * is reported not accepted (exit 4), nothing is recorded and its coin stays spendable.
 */
@ExtendWith(NodeLogOnFailure.class)
class SendBroadcastBtcdTest {
    private static final char[] PASSPHRASE = "e2e".toCharArray();
    private static final Pattern SENT = Pattern.compile("sent ([0-9a-f]{64})");

    @TempDir
    Path dir;

    private WalletFixture<BtcdNode> chain;

    @AfterEach
    void stop() {
        if (chain != null) {
            chain.close();
        }
    }

    private record Run(int exit, String out, String err) {}

    private Run cli(Path wallet, String... args) throws IOException {
        Path pass = dir.resolve("pass");
        Files.writeString(pass, new String(PASSPHRASE));
        List<String> all =
                new ArrayList<>(List.of("--wallet", wallet.toString(), "--passphrase-file", pass.toString()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = WalletCli.run(
                all.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** btcd with a scenario, and a wallet at {@code file} holding one confirmed coin. */
    private ScenarioSpec startWithFundedWallet(long seed, Path file) {
        ScenarioSpec spec = ScenarioSpec.small(seed, 5);
        chain = WalletFixture.onBtcd(spec);
        LightWallet w = WalletFixture.newWallet(file, PASSPHRASE, EnumSet.of(AddressKind.P2WPKH));
        chain.pay(WalletFixture.receiving(w, AddressKind.P2WPKH, 0));
        chain.node().mine(1);
        return spec;
    }

    private Run send(Path wallet, ScenarioSpec spec, String amount, String... sources) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "send", "--to", spec.miningAddress().toString(), "--amount", amount, "--fee-rate", "2", "--yes"));
        args.addAll(List.of(sources));
        return cli(wallet, args.toArray(String[]::new));
    }

    @Test
    void aP2pOnlySendIsAcceptedByBtcdAndConfirms() throws IOException {
        Path file = dir.resolve("w.json");
        ScenarioSpec spec = startWithFundedWallet(20_261_202L, file);
        RegtestNode node = chain.node();
        InetSocketAddress p2p = node.p2pAddress().orElseThrow();
        String peer = p2p.getHostString() + ":" + p2p.getPort();

        Run sync = cli(file, "sync", "--peer", peer, "--timeout", "10");
        assertEquals(0, sync.exit(), sync.err());
        Run send = send(file, spec, "0.01", "--peer", peer, "--timeout", "10");
        assertEquals(0, send.exit(), send.err());
        Matcher m = SENT.matcher(send.out());
        assertTrue(m.find(), send.out());
        Sha256Hash txid = Sha256Hash.wrap(m.group(1));
        assertTrue(LightWallet.load(file, PASSPHRASE)
                .ledger()
                .get(txid)
                .orElseThrow()
                .pending());

        Block block = node.block(node.mine(1).get(0)).orElseThrow();
        assertTrue(block.getTransactions().stream().anyMatch(t -> t.getTxId().equals(txid)), "btcd mined " + txid);
        assertEquals(0, cli(file, "sync", "--peer", peer, "--timeout", "10").exit());
        assertEquals(
                node.tipHeight(),
                LightWallet.load(file, PASSPHRASE)
                        .ledger()
                        .get(txid)
                        .orElseThrow()
                        .height());
    }

    @Test
    void aRestSendTheNodeRefusedAfterAnsweringItsTxidIsNotAcceptedAndItsCoinStaysSpendable() throws IOException {
        Path file = dir.resolve("w.json");
        ScenarioSpec spec = startWithFundedWallet(20_261_203L, file);
        RegtestNode node = chain.node();
        try (AnswerFirstRpcProxy proxy = new AnswerFirstRpcProxy(node.rpcUri());
                ServerOnNode server = new ServerOnNode(node, proxy.uri())) {
            String url = server.baseUri().toString();
            assertEquals(0, cli(file, "sync", "--server", url).exit());
            // A second copy of the wallet that will spend the same coin again.
            Path copy = dir.resolve("copy.json");
            Files.copy(file, copy);
            for (UnaryOperator<Path> chainFile : List.<UnaryOperator<Path>>of(
                    ChainFiles::headers, ChainFiles::filterHeaders, ChainFiles::checkpoints)) {
                if (Files.exists(chainFile.apply(file))) {
                    Files.copy(chainFile.apply(file), chainFile.apply(copy));
                }
            }
            Run first = send(file, spec, "0.01", "--server", url);
            assertEquals(0, first.exit(), first.err());
            Coin before = LightWallet.load(copy, PASSPHRASE).ledger().balance(false);

            Run doubleSpend = send(copy, spec, "0.02", "--server", url);
            assertEquals(4, doubleSpend.exit(), doubleSpend.out() + doubleSpend.err());
            assertTrue(doubleSpend.err().contains("was not accepted by any source"), doubleSpend.err());
            assertTrue(doubleSpend.err().contains("tx_rejected"), doubleSpend.err());
            assertTrue(doubleSpend.err().contains("does not hold it"), doubleSpend.err());
            assertFalse(doubleSpend.out().contains("sent "), doubleSpend.out());
            assertEquals(1, proxy.hiddenRefusals());
            LightWallet after = LightWallet.load(copy, PASSPHRASE);
            assertEquals(1, after.ledger().utxos(false).size(), "the coin is still unspent in the copy");
            assertEquals(before, after.ledger().balance(false));
        }
    }
}
