package org.blockfilter.wallet.spend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.ledger.Balance;
import org.blockfilter.wallet.ledger.HistoryEntry;
import org.blockfilter.wallet.ledger.PendingStatus;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bump} (BIP 125 replacement) and {@code abandon}, and what the ledger shows around them. */
class BumpAndAbandonTest {
    @TempDir
    Path dir;

    private RegtestChainBuilder chain;
    private MemorySource src;
    private LightWallet w;

    private Address addr(int index) {
        return w.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, index)
                .address();
    }

    private void fund(Coin... values) {
        chain = new RegtestChainBuilder();
        w = TestWallets.create(dir);
        chain.mine(2);
        for (int i = 0; i < values.length; i++) {
            chain.mineBlock(List.of(chain.pay(List.of(addr(i)), values[i])));
        }
        src = new MemorySource("honest", chain);
        sync();
    }

    private void sync() {
        new SyncEngine(w, List.of(src), SyncEngine.Options.defaults()).sync();
    }

    private PreparedPayment send(Coin amount, long rate) {
        Spender s = new Spender(w);
        PreparedPayment p = s.prepare(w.unlock(TestWallets.PASSPHRASE), chain.minerAddress(), amount, rate);
        s.broadcast(p, List.of(src));
        return p;
    }

    private static Transaction tx(PreparedPayment p) {
        return Transaction.read(ByteBuffer.wrap(p.raw()));
    }

    private static Set<TransactionOutPoint> inputs(Transaction t) {
        return t.getInputs().stream().map(TransactionInput::getOutpoint).collect(Collectors.toSet());
    }

    @Test
    void aBumpKeepsInputsAndRecipientReducesChangeAndPaysWhatBip125Asks() {
        fund(Coin.COIN);
        PreparedPayment original = send(Coin.CENT, 2);
        PreparedPayment bumped = new FeeBumper(w).bump(w.unlock(TestWallets.PASSPHRASE), original.txid(), 10);
        Transaction o = tx(original);
        Transaction b = tx(bumped);

        assertTrue(inputs(b).containsAll(inputs(o)), "the same inputs or more");
        TransactionOutput paid = b.getOutputs().stream()
                .filter(x -> x.getValue().equals(Coin.CENT))
                .findFirst()
                .orElseThrow();
        assertEquals(chain.minerScript(), paid.getScriptPubKey(), "the recipient's output is kept");
        assertTrue(bumped.change().isLessThan(original.change()), "the change pays the difference");
        assertTrue(bumped.fee().value >= original.fee().value + b.getVsize(), "rule 4: + incremental relay fee");
        assertTrue(
                bumped.effectiveSatPerVByte() >= 10 && bumped.effectiveSatPerVByte() > original.effectiveSatPerVByte());
        for (TransactionInput in : b.getInputs()) {
            assertEquals(Spender.RBF_SEQUENCE, in.getSequenceNumber());
        }

        new Spender(w).broadcast(bumped, List.of(src));
        assertEquals(
                PendingStatus.Kind.REPLACED,
                w.ledger().pendingStatus(original.txid()).orElseThrow().kind());
        Balance bal = w.ledger().balance(w.headers().tipHeight());
        assertEquals(bumped.change(), bal.unconfirmed(), "only the replacement's change counts");
        assertEquals(Coin.COIN, bal.lockedByPending());
        assertEquals(Coin.ZERO, bal.spendable());

        chain.mineBlock(List.of(b));
        sync();
        assertTrue(w.ledger().get(original.txid()).isEmpty(), "the replaced payment is gone once the bump confirms");
        assertEquals(
                chain.tipHeight(), w.ledger().get(bumped.txid()).orElseThrow().height());
        assertEquals(bumped.change(), w.ledger().spendableBalance(w.headers().tipHeight()));
    }

    @Test
    void aBumpAddsACoinWhenThereIsNoChangeToPayIt() {
        fund(Coin.valueOf(100_000), Coin.COIN);
        // One 100,000-sat coin pays 99,500 + fee with no change worth making.
        PreparedPayment original = send(Coin.valueOf(99_500), 2);
        assertEquals(1, original.inputs());
        assertFalse(original.change().isPositive());

        PreparedPayment bumped = new FeeBumper(w).bump(w.unlock(TestWallets.PASSPHRASE), original.txid(), 20);
        Transaction b = tx(bumped);
        assertEquals(2, b.getInputs().size());
        assertTrue(inputs(b).containsAll(inputs(tx(original))));
        assertTrue(bumped.change().isPositive());
        assertEquals(Coin.valueOf(99_500), bumped.amount());
        assertTrue(bumped.effectiveSatPerVByte() >= 20);
    }

    @Test
    void aBumpIsRefusedBelowTheRateItPaysAndForWhatIsNotAPendingPayment() {
        fund(Coin.COIN);
        PreparedPayment original = send(Coin.CENT, 5);
        FeeBumper bumper = new FeeBumper(w);
        IllegalArgumentException low = assertThrows(
                IllegalArgumentException.class,
                () -> bumper.bump(w.unlock(TestWallets.PASSPHRASE), original.txid(), 5));
        assertTrue(low.getMessage().contains("already pays"), low.getMessage());
        IllegalArgumentException unknown = assertThrows(
                IllegalArgumentException.class,
                () -> bumper.bump(w.unlock(TestWallets.PASSPHRASE), org.bitcoinj.base.Sha256Hash.ZERO_HASH, 9));
        assertTrue(unknown.getMessage().contains("not in this wallet"), unknown.getMessage());
        chain.mineMempool();
        sync();
        IllegalArgumentException confirmed = assertThrows(
                IllegalArgumentException.class,
                () -> bumper.bump(w.unlock(TestWallets.PASSPHRASE), original.txid(), 9));
        assertTrue(confirmed.getMessage().contains("already confirmed"), confirmed.getMessage());
    }

    @Test
    void abandonReleasesTheCoinsAndASyncThatFindsItConfirmedTakesItBack() {
        fund(Coin.COIN);
        PreparedPayment p = send(Coin.CENT, 2);
        assertEquals(Coin.ZERO, w.ledger().spendableBalance(w.headers().tipHeight()));

        assertEquals(List.of(p.txid()), w.ledger().abandon(p.txid()));
        w.save();
        LightWallet reloaded = LightWallet.load(w.file());
        assertTrue(reloaded.ledger().get(p.txid()).isEmpty());
        assertEquals(
                Coin.COIN, reloaded.ledger().spendableBalance(reloaded.headers().tipHeight()));

        chain.mineMempool(); // it confirms after all
        sync();
        assertEquals(chain.tipHeight(), w.ledger().get(p.txid()).orElseThrow().height());
        assertEquals(p.change(), w.ledger().spendableBalance(w.headers().tipHeight()));
        assertThrows(IllegalArgumentException.class, () -> w.ledger().abandon(p.txid()), "confirmed");
    }

    @Test
    void aPaymentWhoseInputLeftTheChainIsShownAsSuchAndLocksItsOtherCoins() {
        chain = new RegtestChainBuilder();
        w = TestWallets.create(dir);
        chain.mine(6);
        chain.mineBlock(List.of(chain.pay(List.of(addr(0)), Coin.CENT)));
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(List.of(addr(1)), Coin.CENT)));
        src = new MemorySource("honest", chain);
        sync();
        PreparedPayment p = send(Coin.CENT.add(Coin.MILLICOIN), 2); // both coins
        assertEquals(2, p.inputs());

        RegtestChainBuilder fork = chain.forkAt(8); // keeps the first coin, drops the second
        fork.mine(4);
        src.switchTo(fork);
        sync();

        PendingStatus s = w.ledger().pendingStatus(p.txid()).orElseThrow();
        assertEquals(PendingStatus.Kind.INPUTS_GONE, s.kind());
        assertTrue(s.describe().contains("left the chain") && s.describe().contains("abandon"), s.describe());
        Balance b = w.ledger().balance(w.headers().tipHeight());
        assertEquals(Coin.ZERO, b.unconfirmed());
        assertEquals(Coin.ZERO, b.spendable(), "its remaining coin stays locked until abandoned");
        assertEquals(Coin.CENT, b.lockedByPending());
        assertEquals(List.of(s), b.stuck());
        HistoryEntry h = w.ledger().history().stream()
                .filter(e -> e.txid().equals(p.txid()))
                .findFirst()
                .orElseThrow();
        assertEquals("inputs-gone", h.status());
        assertEquals(Coin.ZERO, h.net());

        w.ledger().abandon(p.txid());
        assertEquals(Coin.CENT, w.ledger().spendableBalance(w.headers().tipHeight()));
    }

    @Test
    void aPaymentWithAPendingChildIsNotBumpedAndAbandoningItTakesTheChildToo() {
        fund(Coin.COIN);
        PreparedPayment parent = send(Coin.CENT, 2);
        Transaction p = tx(parent);
        int changeIndex = p.getOutput(0).getValue().equals(Coin.CENT) ? 1 : 0;
        Transaction child = new Transaction();
        child.addInput(new TransactionInput(
                child, new byte[0], new TransactionOutPoint(changeIndex, parent.txid()), parent.change()));
        child.addOutput(parent.change().subtract(Coin.valueOf(1_000)), chain.minerAddress());
        w.ledger()
                .put(org.blockfilter.wallet.ledger.WalletTx.of(
                        child, org.blockfilter.wallet.ledger.WalletTx.PENDING, null));

        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new FeeBumper(w).bump(w.unlock(TestWallets.PASSPHRASE), parent.txid(), 10));
        assertTrue(e.getMessage().contains(child.getTxId() + " spends its outputs"), e.getMessage());

        assertEquals(List.of(parent.txid(), child.getTxId()), w.ledger().abandon(parent.txid()));
        assertEquals(Coin.COIN, w.ledger().spendableBalance(w.headers().tipHeight()));
    }

    @Test
    void aPaymentThatDoesNotSignalReplaceabilityIsRecognised() {
        Transaction t = new Transaction();
        t.addInput(new TransactionInput(
                t, new byte[0], new TransactionOutPoint(0, org.bitcoinj.base.Sha256Hash.ZERO_HASH), Coin.COIN));
        assertFalse(FeeBumper.signalsReplaceability(t));
        t.replaceInput(0, t.getInput(0).withSequence(Spender.RBF_SEQUENCE));
        assertTrue(FeeBumper.signalsReplaceability(t));
    }
}
