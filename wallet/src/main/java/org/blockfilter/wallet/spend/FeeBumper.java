package org.blockfilter.wallet.spend;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptException;
import org.blockfilter.filters.chain.Dust;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.DerivedAddress;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.ledger.PendingStatus;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.ledger.WalletTx;

/**
 * Builds the BIP 125 replacement of one of the wallet's pending payments at a higher fee rate:
 * the same inputs (and more when the change cannot pay), the recipients' outputs unchanged, the
 * change reduced (dropped into the fee when it would be dust). The replacement pays at least
 * the rate asked, a higher rate than the original, and an absolute fee at least the original's
 * plus the incremental relay fee for its own size (BIP 125 rules 3 and 4; btcd checks the same
 * with its minimum relay fee). Only confirmed coins are added (rule 2). Nothing is broadcast or
 * saved; the signed replacement is returned. Not thread-safe (it may move the change index).
 */
public final class FeeBumper {
    /**
     * The incremental relay fee, sat/vB: Bitcoin Core's DEFAULT_INCREMENTAL_RELAY_FEE (1000
     * sat/kvB until v29, 100 since; src/policy/policy.h) and btcd's default minimum relay fee
     * (1000 sat/kB). 1 sat/vB is accepted by all of them.
     */
    static final long INCREMENTAL_SAT_PER_VBYTE = 1;

    private final LightWallet wallet;
    private final Spender spender;

    /**
     * A fee bumper for the wallet's pending payments; it signs with the wallet's keys, so the wallet must be unlocked.
     */
    public FeeBumper(LightWallet wallet) {
        this.wallet = wallet;
        this.spender = new Spender(wallet);
    }

    /**
     * The signed replacement of pending payment {@code txid} paying {@code satPerVByte}.
     *
     * @throws IllegalArgumentException when the transaction is not a pending payment of this
     *     wallet that can confirm, or the rate is not above the one it pays
     * @throws InsufficientFundsException when the change and the spendable coins cannot pay the fee
     */
    public PreparedPayment bump(WalletKeys unlocked, Sha256Hash txid, long satPerVByte) {
        WalletTx original = wallet.ledger()
                .get(txid)
                .orElseThrow(() -> new IllegalArgumentException("transaction " + txid + " is not in this wallet"));
        if (!original.pending()) {
            throw new IllegalArgumentException("transaction " + txid + " is already confirmed at height "
                    + original.height() + ": there is nothing to bump");
        }
        PendingStatus status = wallet.ledger().pendingStatus(txid).orElseThrow();
        if (status.kind() != PendingStatus.Kind.VALID) {
            throw new IllegalArgumentException("cannot bump " + txid + ": " + status.describe());
        }
        if (satPerVByte < 1 || satPerVByte > 100_000) {
            throw new IllegalArgumentException("fee rate must be 1..100000 sat/vB, got " + satPerVByte);
        }
        Transaction old = original.tx();
        for (WalletTx t : wallet.ledger().transactions()) {
            if (t.pending()
                    && t.tx().getInputs().stream()
                            .anyMatch(in -> in.getOutpoint().hash().equals(txid))) {
                throw new IllegalArgumentException("cannot bump " + txid + ": pending payment " + t.txid()
                        + " spends its outputs (a replacement would evict it); bump that one instead");
            }
        }
        List<Utxo> inputs = new ArrayList<>();
        for (TransactionInput in : old.getInputs()) {
            TransactionOutput prev = wallet.ledger()
                    .ownedOutput(in.getOutpoint())
                    .orElseThrow(() -> new IllegalArgumentException("cannot bump " + txid + ": input "
                            + in.getOutpoint() + " is not one of this wallet's coins"));
            WalletTx parent = wallet.ledger().get(in.getOutpoint().hash()).orElseThrow();
            inputs.add(new Utxo(
                    in.getOutpoint(),
                    prev.getValue(),
                    OutputScript.of(prev.getScriptBytes()),
                    parent.height(),
                    parent.tx().isCoinBase()));
        }
        long inSum = inputs.stream().mapToLong(u -> u.value().value).sum();
        long oldFee = inSum - old.getOutputSum().value;
        int oldVsize = old.getVsize();
        if (satPerVByte * oldVsize <= oldFee) {
            throw new IllegalArgumentException(String.format(
                    "%s already pays %.2f sat/vB (%d sat for %d vB): give a --fee-rate above that",
                    txid, (double) oldFee / oldVsize, oldFee, oldVsize));
        }

        List<TransactionOutput> recipients = new ArrayList<>();
        TransactionOutput oldChange = null;
        for (TransactionOutput o : old.getOutputs()) {
            Optional<DerivedAddress> mine = wallet.keys().lookup(OutputScript.of(o.getScriptBytes()));
            if (oldChange == null && mine.isPresent() && mine.get().change()) {
                oldChange = o;
            } else {
                recipients.add(o);
            }
        }
        if (recipients.isEmpty()) {
            throw new IllegalArgumentException("cannot bump " + txid + ": it pays no one but this wallet's change");
        }
        long paid = recipients.stream().mapToLong(o -> o.getValue().value).sum();
        byte[] changeScript = oldChange != null ? oldChange.getScriptBytes() : null;

        int vb = TxSize.OVERHEAD_VB;
        for (TransactionOutput o : recipients) {
            vb += TxSize.outputVBytes(o.getScriptBytes().length);
        }
        for (Utxo u : inputs) {
            vb += spender.inputVBytes(u);
        }
        List<Utxo> extra =
                new ArrayList<>(wallet.ledger().spendable(wallet.headers().tipHeight()));
        extra.sort(Comparator.comparing((Utxo u) -> u.value().value).reversed());
        DerivedAddress newChange = null;
        long fee;
        long change;
        while (true) {
            byte[] script = changeScript != null ? changeScript : peekChangeScript(unlocked);
            int withChange = vb + TxSize.outputVBytes(script.length);
            long feeWithChange = requiredFee(withChange, satPerVByte, oldFee);
            change = inSum - paid - feeWithChange;
            if (change >= Dust.threshold(script)) {
                fee = feeWithChange;
                if (changeScript == null) {
                    newChange = nextChange(unlocked);
                    changeScript = newChange.script().bytes();
                }
                break;
            }
            long leftover = inSum - paid - requiredFee(vb, satPerVByte, oldFee);
            if (leftover >= 0) {
                fee = inSum - paid; // change below dust goes to the fee
                change = 0;
                changeScript = null;
                break;
            }
            if (extra.isEmpty()) {
                throw new InsufficientFundsException(
                        Coin.valueOf(inSum), Coin.valueOf(paid + requiredFee(withChange, satPerVByte, oldFee)));
            }
            Utxo more = extra.remove(0);
            inputs.add(more);
            inSum += more.value().value;
            vb += spender.inputVBytes(more);
        }

        Transaction tx = new Transaction();
        tx.setVersion((int) old.getVersion());
        tx.setLockTime(old.getLockTime());
        for (Utxo u : inputs) {
            tx.addInput(
                    new TransactionInput(tx, new byte[0], u.outpoint(), u.value()).withSequence(Spender.RBF_SEQUENCE));
        }
        for (TransactionOutput o : old.getOutputs()) {
            if (o == oldChange) {
                if (changeScript != null) {
                    tx.addOutput(Coin.valueOf(change), Script.parse(changeScript));
                }
            } else {
                tx.addOutput(o.getValue(), Script.parse(o.getScriptBytes()));
            }
        }
        if (newChange != null) {
            tx.addOutput(Coin.valueOf(change), newChange.address());
        }
        spender.signAll(tx, inputs, unlocked);
        Transaction signed = Transaction.read(ByteBuffer.wrap(tx.serialize()));
        return new PreparedPayment(
                signed.getTxId(),
                addressOf(recipients.get(0)),
                Coin.valueOf(paid),
                Coin.valueOf(fee),
                satPerVByte,
                signed.getVsize(),
                Coin.valueOf(change),
                changeScript == null ? null : addressOf(changeScript),
                inputs.size(),
                signed.serialize());
    }

    /**
     * Whether {@code tx} signals BIP 125 replaceability (an input's nSequence below 0xfffffffe).
     * Nodes that follow BIP 125 (btcd) refuse to replace one that does not; Bitcoin Core replaces
     * any transaction since v28 (full RBF by default).
     */
    public static boolean signalsReplaceability(Transaction tx) {
        return tx.getInputs().stream().anyMatch(in -> in.getSequenceNumber() < 0xfffffffeL);
    }

    /** The fee for {@code vbytes} at {@code rate}, and at least the original's plus the incremental relay fee. */
    private static long requiredFee(int vbytes, long rate, long oldFee) {
        return Math.max(vbytes * rate, oldFee + vbytes * INCREMENTAL_SAT_PER_VBYTE);
    }

    private AddressKind changeKind(WalletKeys unlocked) {
        return unlocked.account(AddressKind.P2WPKH).isPresent() ? AddressKind.P2WPKH : AddressKind.P2PKH;
    }

    private byte[] peekChangeScript(WalletKeys unlocked) {
        return unlocked.account(changeKind(unlocked))
                .orElseThrow(() -> new IllegalStateException("no P2WPKH or P2PKH account to receive change"))
                .derive(true, 0)
                .script()
                .bytes();
    }

    private DerivedAddress nextChange(WalletKeys unlocked) {
        return wallet.keys().nextChange(changeKind(unlocked));
    }

    private Address addressOf(TransactionOutput o) {
        return addressOf(o.getScriptBytes());
    }

    private Address addressOf(byte[] script) {
        try {
            return Script.parse(script).getToAddress(wallet.network());
        } catch (ScriptException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot bump: an output script is not an address: " + e.getMessage(), e);
        }
    }
}
