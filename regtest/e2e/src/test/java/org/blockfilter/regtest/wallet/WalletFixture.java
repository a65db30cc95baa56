package org.blockfilter.regtest.wallet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.OutputKind;
import org.blockfilter.regtest.scenario.OwnedOutput;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;

/**
 * The steps the wallet end-to-end tests share. Statically: the test wallet (the "abandon ...
 * about" mnemonic, gap limit 20, born at genesis) and its addresses; the CLI run in this process
 * is the wallet CLI test-jar's {@code InProcessCli}. As an instance: a regtest node (btcd through the
 * harness, or the embedded node) that has run a scenario, and payments to any address from the
 * mature P2WPKH coins the scenario left unspent, one coin each (its value less {@link #FEE}); the
 * caller mines. Closing it stops the node. Not thread-safe.
 */
public final class WalletFixture<N extends RegtestNode> implements AutoCloseable {
    public static final List<String> MNEMONIC = List.of(
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".split(" "));
    public static final Coin FEE = Coin.valueOf(20_000);

    private final N node;
    private final Iterator<OwnedOutput> coins;

    private WalletFixture(N node, GroundTruth truth) {
        this.node = node;
        this.coins = truth.outputs().stream()
                .filter(o -> o.unspent()
                        && !o.coinbase()
                        && o.script().kind() == OutputKind.P2WPKH
                        && o.value().isGreaterThan(Coin.valueOf(1_000_000)))
                .iterator();
    }

    /** btcd (the harness's; the test is skipped without it) after {@code spec}'s scenario. */
    public static WalletFixture<BtcdNode> onBtcd(ScenarioSpec spec) {
        return onBtcd(spec, BtcdTestSupport.binaryOrSkip());
    }

    /** The btcd at {@code binary} after {@code spec}'s scenario. */
    public static WalletFixture<BtcdNode> onBtcd(ScenarioSpec spec, Path binary) {
        return run(
                BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(binary)),
                spec,
                line -> System.err.println("[scenario] " + line));
    }

    /** The embedded node after {@code spec}'s scenario. */
    public static WalletFixture<EmbeddedNode> onEmbedded(ScenarioSpec spec) {
        return run(
                EmbeddedNode.start(EmbeddedNode.Config.defaults().withMiningAddress(spec.miningAddress())),
                spec,
                line -> {});
    }

    private static <N extends RegtestNode> WalletFixture<N> run(N node, ScenarioSpec spec, Consumer<String> progress) {
        try {
            return new WalletFixture<>(node, ScenarioRunner.run(node, spec, progress));
        } catch (RuntimeException | Error e) {
            node.close();
            throw e;
        }
    }

    public N node() {
        return node;
    }

    /** One payment submitted to the node: its transaction (the payment is output 0) and value. */
    public record Payment(Sha256Hash txid, Coin value) {
        public String outpoint() {
            return txid + ":0";
        }
    }

    /** Pays {@code to} the next scenario coin less the fee; the caller mines. */
    public Payment pay(Address to) {
        return pay(ScriptBuilder.createOutputScript(to));
    }

    /** Pays {@code to} the next scenario coin less the fee; the caller mines. */
    public Payment pay(Script to) {
        if (!coins.hasNext()) {
            throw new IllegalStateException("the scenario left no more coins to pay with");
        }
        OwnedOutput coin = coins.next();
        Coin value = coin.value().subtract(FEE);
        Transaction tx = new Transaction();
        tx.addOutput(value, to);
        tx.addSignedInput(
                coin.outpoint(),
                coin.script().scriptPubKey(),
                coin.value(),
                coin.script().keys().get(0));
        return new Payment(node.submitTransaction(tx.serialize()), value);
    }

    /** One payment per target, in target order; the caller mines. */
    public List<Payment> pay(List<Address> targets) {
        List<Payment> out = new ArrayList<>();
        for (Address to : targets) {
            out.add(pay(to));
        }
        return out;
    }

    @Override
    public void close() {
        node.close();
    }

    /** A new regtest wallet at {@code file} from {@link #MNEMONIC} with the given account kinds. */
    public static LightWallet newWallet(Path file, char[] passphrase, Set<AddressKind> kinds) {
        return NewWallet.create(
                file,
                MNEMONIC,
                passphrase,
                kinds,
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withScryptN(1 << 10));
    }

    /** {@code w}'s receive address {@code index} of account {@code kind}. */
    /** CLI arguments for the wallet {@code dir/w.json} with its passphrase in {@code dir/pw}, JSON answers. */
    public static String[] cli(Path dir, String... rest) {
        List<String> all = new ArrayList<>(List.of(
                "--wallet",
                dir.resolve("w.json").toString(),
                "--passphrase-file",
                dir.resolve("pw").toString(),
                "--json"));
        all.addAll(List.of(rest));
        return all.toArray(String[]::new);
    }

    public static Address receiving(LightWallet w, AddressKind kind, int index) {
        return w.keys().account(kind).orElseThrow().derive(false, index).address();
    }
}
