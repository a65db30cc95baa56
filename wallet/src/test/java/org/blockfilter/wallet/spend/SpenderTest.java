package org.blockfilter.wallet.spend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionWitness;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.Schnorr;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.ledger.WalletTx;
import org.blockfilter.wallet.source.NotAcceptedException;
import org.blockfilter.wallet.store.WrongPassphraseException;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpenderTest {
    @TempDir
    Path dir;

    private LightWallet funded(RegtestChainBuilder chain, AddressKind kind, Coin value) {
        LightWallet w = TestWallets.create(dir);
        Address a = w.keys().account(kind).orElseThrow().derive(false, 0).address();
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(List.of(a), value)));
        new SyncEngine(w, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();
        return w;
    }

    @Test
    void signsP2wpkhAndP2pkhInputsThatVerify() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = TestWallets.create(dir);
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(
                List.of(
                        w.keys()
                                .account(AddressKind.P2WPKH)
                                .orElseThrow()
                                .derive(false, 0)
                                .address(),
                        w.keys()
                                .account(AddressKind.P2PKH)
                                .orElseThrow()
                                .derive(false, 0)
                                .address()),
                Coin.CENT)));
        new SyncEngine(w, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();
        WalletKeys keys = w.unlock(TestWallets.PASSPHRASE);

        PreparedPayment p = new Spender(w).prepare(keys, chain.minerAddress(), Coin.CENT.add(Coin.MILLICOIN), 3);

        Transaction tx = Transaction.read(ByteBuffer.wrap(p.raw()));
        assertEquals(2, tx.getInputs().size());
        assertTrue(p.effectiveSatPerVByte() >= 3.0, "paid " + p.effectiveSatPerVByte() + " sat/vB");
        assertEquals(Coin.CENT.multiply(2), tx.getOutputSum().add(p.fee()));
    }

    @Test
    void pendingPaymentLowersSpendableBalanceUntilConfirmed() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = funded(chain, AddressKind.P2WPKH, Coin.COIN);
        MemorySource src = new MemorySource("honest", chain);
        Spender spender = new Spender(w);
        PreparedPayment p = spender.prepare(w.unlock(TestWallets.PASSPHRASE), chain.minerAddress(), Coin.CENT, 2);
        spender.broadcast(p, List.of(src));

        assertEquals(Coin.COIN, w.ledger().balance(true));
        assertEquals(Coin.COIN.subtract(Coin.CENT).subtract(p.fee()), w.ledger().balance(false));
        assertTrue(
                LightWallet.load(w.file()).ledger().get(p.txid()).orElseThrow().pending());
        // The same coin is not offered again while the payment is pending.
        assertThrows(
                InsufficientFundsException.class,
                () -> spender.prepare(w.unlock(TestWallets.PASSPHRASE), chain.minerAddress(), Coin.CENT, 2));

        chain.mineMempool();
        new SyncEngine(w, List.of(src), SyncEngine.Options.defaults()).sync();
        WalletTx confirmed = w.ledger().get(p.txid()).orElseThrow();
        assertEquals(chain.tipHeight(), confirmed.height());
        assertEquals(Coin.COIN.subtract(Coin.CENT).subtract(p.fee()), w.ledger().balance(true));
    }

    @Test
    void aPaymentNoSourceAcceptedIsNotRecordedAndItsCoinsStaySpendable() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = funded(chain, AddressKind.P2WPKH, Coin.COIN);
        MemorySource refusing = new MemorySource("refusing", chain) {
            @Override
            public Sha256Hash broadcast(byte[] rawTransaction) {
                throw new NotAcceptedException(name(), "the peer rejected it: bad-txns-inputs-missingorspent");
            }
        };
        Spender spender = new Spender(w);
        PreparedPayment p = spender.prepare(w.unlock(TestWallets.PASSPHRASE), chain.minerAddress(), Coin.CENT, 2);

        PaymentNotAcceptedException e =
                assertThrows(PaymentNotAcceptedException.class, () -> spender.broadcast(p, List.of(refusing)));
        assertTrue(
                e.getMessage().contains("refusing: the peer rejected it: bad-txns-inputs-missingorspent"),
                e.getMessage());
        assertTrue(w.ledger().get(p.txid()).isEmpty());
        assertTrue(LightWallet.load(w.file()).ledger().get(p.txid()).isEmpty());
        assertEquals(Coin.COIN, w.ledger().balance(false));
        // The coin is offered again, and a source that accepts records the new payment.
        PreparedPayment again = spender.prepare(w.unlock(TestWallets.PASSPHRASE), chain.minerAddress(), Coin.CENT, 2);
        assertEquals(again.txid(), spender.broadcast(again, List.of(refusing, new MemorySource("honest", chain))));
        assertTrue(w.ledger().get(again.txid()).orElseThrow().pending());
    }

    @Test
    void taprootCoinsAreSpentOnTheKeyPathBesideSegwitV0Coins() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = TestWallets.create(dir);
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(
                List.of(
                        w.keys()
                                .account(AddressKind.P2TR)
                                .orElseThrow()
                                .derive(false, 0)
                                .address(),
                        w.keys()
                                .account(AddressKind.P2WPKH)
                                .orElseThrow()
                                .derive(false, 0)
                                .address()),
                Coin.CENT)));
        new SyncEngine(w, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();

        PreparedPayment p = new Spender(w)
                .prepare(w.unlock(TestWallets.PASSPHRASE), chain.minerAddress(), Coin.CENT.add(Coin.MILLICOIN), 3);

        Transaction tx = Transaction.read(ByteBuffer.wrap(p.raw()));
        assertEquals(2, tx.getInputs().size());
        List<TaprootSighash.SpentOutput> spent = new ArrayList<>();
        for (TransactionInput in : tx.getInputs()) {
            Utxo u = w.ledger().utxos(true).stream()
                    .filter(x -> x.outpoint().equals(in.getOutpoint()))
                    .findFirst()
                    .orElseThrow();
            spent.add(new TaprootSighash.SpentOutput(u.value().value, u.script().bytes()));
        }
        int taproot = 0;
        for (int i = 0; i < tx.getInputs().size(); i++) {
            byte[] script = spent.get(i).scriptPubKey();
            if (script[0] == 0x51) {
                taproot++;
                TransactionWitness wit = tx.getInput(i).getWitness();
                assertEquals(1, wit.getPushCount(), "key path: one witness item");
                assertEquals(64, wit.getPush(0).length, "SIGHASH_DEFAULT: no hash-type byte");
                byte[] sighash = TaprootSighash.hash(tx, i, spent, TaprootSighash.SIGHASH_DEFAULT);
                assertTrue(Schnorr.verify(wit.getPush(0), sighash, Arrays.copyOfRange(script, 2, 34)));
            }
        }
        assertEquals(1, taproot);
        assertTrue(p.effectiveSatPerVByte() >= 3.0, "paid " + p.effectiveSatPerVByte() + " sat/vB");
    }

    @Test
    void wrongPassphraseCannotSpend() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = funded(chain, AddressKind.P2WPKH, Coin.COIN);
        assertThrows(WrongPassphraseException.class, () -> w.unlock("nope".toCharArray()));
    }

    @Test
    void rejectsAddressOfAnotherNetwork() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = funded(chain, AddressKind.P2WPKH, Coin.COIN);
        Address mainnet =
                org.bitcoinj.base.AddressParser.getDefault().parseAddress("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu");
        assertThrows(
                IllegalArgumentException.class,
                () -> new Spender(w).prepare(w.unlock(TestWallets.PASSPHRASE), mainnet, Coin.CENT, 2));
    }

    @Test
    void paysRegtestBase58AddressesWhichShareTestnetPrefixes() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = funded(chain, AddressKind.P2WPKH, Coin.COIN);
        WalletKeys keys = w.unlock(TestWallets.PASSPHRASE);
        Address ownP2pkh = w.keys()
                .account(AddressKind.P2PKH)
                .orElseThrow()
                .derive(false, 3)
                .address();
        for (String text : List.of(
                "mxiMrfji71Pn5piJqtGWy9tfkQnKs8wYWe", "2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf", ownP2pkh.toString())) {
            // As parsed by bitcoinj, whose base58 parser only knows testnet for these prefixes.
            Address parsed = org.bitcoinj.base.AddressParser.getDefault().parseAddress(text);

            PreparedPayment p = new Spender(w).prepare(keys, parsed, Coin.CENT, 2);

            Transaction tx = Transaction.read(ByteBuffer.wrap(p.raw()));
            assertEquals(
                    org.bitcoinj.script.ScriptBuilder.createOutputScript(parsed),
                    tx.getOutput(0).getScriptPubKey(),
                    text);
        }
    }
}
