package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.bdk.BdkTestSupport;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressDecoder;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.spend.PreparedPayment;
import org.blockfilter.wallet.spend.Spender;
import org.blockfilter.wallet.sync.SyncEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our wallet against BDK (bdkpython, the Bitcoin Dev Kit), an independent implementation: the
 * same mnemonic derives the same addresses, and on one btcd chain, each wallet syncing by BIP 157
 * (ours over P2P, BDK with Kyoto through its CbfBuilder), they agree on balances and coins and see
 * each other's payments. BDK signs its payments; btcd's RPC relays them (see bdk_wallet.py).
 */
@ExtendWith(NodeLogOnFailure.class)
class BdkInteropTest {
    /** Ours, and mirrored in BDK. */
    private static final String MNEMONIC = String.join(" ", WalletFixture.MNEMONIC);
    /** BDK's own wallet, which pays us and which we pay. */
    private static final String BDK_MNEMONIC =
            "legal winner thank year wave sausage worth useful legal winner thank yellow";

    private static final char[] PASSPHRASE = "bdk".toCharArray();
    private static final Map<AddressKind, String> BDK_KIND =
            Map.of(AddressKind.P2PKH, "44", AddressKind.P2WPKH, "84", AddressKind.P2TR, "86");

    @TempDir
    Path dir;

    private WalletFixture<BtcdNode> chain;
    private RegtestNode node;

    @AfterEach
    void stop() {
        if (chain != null) {
            chain.close();
        }
    }

    private LightWallet ourWallet() {
        return WalletFixture.newWallet(dir.resolve("w.json"), PASSPHRASE, AddressKind.seedKinds());
    }

    private static Address address(LightWallet w, AddressKind kind, int index) {
        return WalletFixture.receiving(w, kind, index);
    }

    @Test
    void sameMnemonicGivesTheSameFirst20ReceiveAndChangeAddressesOnBip44_84_86() {
        BdkScript bdk = new BdkScript(BdkTestSupport.pythonOrSkip(), dir);
        JsonNode theirs = bdk.addresses(MNEMONIC, 20);
        LightWallet ours = ourWallet();

        for (AddressKind kind : AddressKind.seedKinds()) {
            HdAccount account = ours.keys().account(kind).orElseThrow();
            for (boolean change : new boolean[] {false, true}) {
                List<String> mine = new ArrayList<>();
                List<String> bdks = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    mine.add(account.derive(change, i).address().toString());
                    bdks.add(theirs.get(BDK_KIND.get(kind))
                            .get(change ? "change" : "receive")
                            .get(i)
                            .asText());
                }
                assertEquals(bdks, mine, kind + (change ? " change" : " receive"));
            }
        }
    }

    @Test
    void bdkAndOurWalletSyncTheSameBtcdChainAgreeAndPayEachOther() {
        BdkScript bdk = new BdkScript(BdkTestSupport.pythonOrSkip(), dir);
        ScenarioSpec spec = ScenarioSpec.small(20_261_202L, 5);
        chain = WalletFixture.onBtcd(spec);
        node = chain.node();
        InetSocketAddress p2p = node.p2pAddress().orElseThrow();
        LightWallet w = ourWallet();
        JsonNode bdkAddresses = bdk.addresses(BDK_MNEMONIC, 2).get("84").get("receive");
        Address bdkReceive0 = AddressDecoder.decode(bdkAddresses.get(0).asText(), BitcoinNetwork.REGTEST);
        Address bdkReceive1 = AddressDecoder.decode(bdkAddresses.get(1).asText(), BitcoinNetwork.REGTEST);

        // Coins for our wallet (every kind) and for BDK's.
        chain.pay(List.of(
                address(w, AddressKind.P2WPKH, 0),
                address(w, AddressKind.P2TR, 0),
                address(w, AddressKind.P2PKH, 0),
                bdkReceive0));
        node.mine(1);

        // BDK pays our P2TR and P2WPKH addresses.
        Address ourTaproot = address(w, AddressKind.P2TR, 1);
        Address ourSegwit = address(w, AddressKind.P2WPKH, 1);
        JsonNode paid =
                bdk.sync(BDK_MNEMONIC, p2p, List.of("84"), List.of(ourTaproot + ":150000", ourSegwit + ":250000"));
        Sha256Hash bdkTxid =
                node.submitTransaction(HexFormat.of().parseHex(paid.get("raw").asText()));
        assertEquals(paid.get("paid").asText(), bdkTxid.toString());
        node.mine(1);

        try (P2pSource source =
                P2pSource.connect(p2p, Chain.REGTEST, P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(10)))) {
            new SyncEngine(w, List.of(source), SyncEngine.Options.defaults()).sync();
            Transaction fromBdk = w.ledger().get(bdkTxid).orElseThrow().tx();
            assertEquals(Coin.valueOf(150_000), paidTo(fromBdk, ourTaproot));
            assertEquals(Coin.valueOf(250_000), paidTo(fromBdk, ourSegwit));

            // We pay BDK.
            Spender spender = new Spender(w);
            PreparedPayment p = spender.prepare(w.unlock(PASSPHRASE), bdkReceive1, Coin.valueOf(300_000), 2);
            Sha256Hash ourTxid = spender.broadcast(p, List.of(source));
            node.mine(1);
            new SyncEngine(w, List.of(source), SyncEngine.Options.defaults()).sync();

            JsonNode bdkSide = bdk.sync(BDK_MNEMONIC, p2p, List.of("84"), List.of())
                    .get("wallets")
                    .get("84");
            assertEquals(node.tipHeight(), bdkSide.get("tip").asInt());
            assertTrue(contains(bdkSide.get("txids"), ourTxid.toString()), "BDK sees our payment " + ourTxid);
            assertTrue(contains(bdkSide.get("utxos"), ourTxid + ":0"), "BDK owns our payment's output 0");

            // The same mnemonic in BDK: the same coins and the same balance as ours.
            JsonNode mirror = bdk.sync(MNEMONIC, p2p, List.of("44", "84", "86"), List.of())
                    .get("wallets");
            long bdkBalance = 0;
            Set<String> bdkUtxos = new TreeSet<>();
            for (JsonNode kind : mirror) {
                assertEquals(node.tipHeight(), kind.get("tip").asInt());
                assertEquals(0, kind.get("pending").asLong());
                bdkBalance += kind.get("confirmed").asLong();
                kind.get("utxos").forEach(u -> bdkUtxos.add(u.asText()));
            }
            Set<String> ourUtxos = new TreeSet<>();
            for (Utxo u : w.ledger().utxos(true)) {
                ourUtxos.add(u.outpoint().hash() + ":" + u.outpoint().index());
            }
            assertEquals(bdkUtxos, ourUtxos);
            assertEquals(Coin.valueOf(bdkBalance), w.ledger().balance(true));
        }
    }

    private static Coin paidTo(Transaction tx, Address to) {
        Coin sum = Coin.ZERO;
        byte[] script = org.bitcoinj.script.ScriptBuilder.createOutputScript(to).program();
        for (TransactionOutput o : tx.getOutputs()) {
            if (java.util.Arrays.equals(o.getScriptBytes(), script)) {
                sum = sum.add(o.getValue());
            }
        }
        return sum;
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode n : array) {
            if (n.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }
}
