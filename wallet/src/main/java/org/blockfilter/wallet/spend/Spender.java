package org.blockfilter.wallet.spend;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.TransactionSignature;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.bitcoinj.script.ScriptException;
import org.blockfilter.filters.chain.Dust;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressDecoder;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.DerivedAddress;
import org.blockfilter.wallet.keys.Schnorr;
import org.blockfilter.wallet.keys.Taproot;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.ledger.WalletTx;
import org.blockfilter.wallet.psbt.Psbt;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;

/**
 * Builds, signs and broadcasts payments from a {@link LightWallet}. Spends confirmed P2WPKH, P2PKH
 * and P2TR coins (BIP 86 key path: BIP 340 Schnorr over the BIP 341 sighash), and builds PSBTs of
 * any of the wallet's coins, multisig included; change goes to the next unused BIP 84 change
 * address (else the first of BIP 44, multisig, {@code sh(wpkh)} and taproot accounts the wallet
 * has: {@link #CHANGE_KINDS}). Every P2WPKH and
 * P2PKH input is checked with bitcoinj's script interpreter, every P2TR signature against its output
 * key, before the payment is returned. Not thread-safe (it moves the wallet's change index).
 */
public final class Spender {
    /**
     * BIP 125: an input with nSequence below 0xfffffffe signals that the transaction may be
     * replaced by one paying more ({@code bump}); 0xfffffffd, as Bitcoin Core's wallet, also
     * leaves nLockTime enforced.
     */
    static final long RBF_SEQUENCE = 0xfffffffdL;

    /**
     * Where change goes: the first of these accounts the wallet has. A multisig wallet's change goes
     * to its change descriptor, so it stays under the same cosigners.
     */
    private static final List<AddressKind> CHANGE_KINDS = List.of(
            AddressKind.P2WPKH,
            AddressKind.P2PKH,
            AddressKind.P2WSH,
            AddressKind.P2SH_P2WSH,
            AddressKind.P2SH_P2WPKH,
            AddressKind.P2TR);

    private final LightWallet wallet;
    private final SecureRandom random = new SecureRandom();

    /** A spender for the wallet; it signs with the wallet's keys and moves its change index. */
    public Spender(LightWallet wallet) {
        this.wallet = wallet;
    }

    /** Selects coins and signs; nothing is broadcast or saved. {@code unlocked} must hold private keys. */
    public PreparedPayment prepare(WalletKeys unlocked, Address to, Coin amount, long satPerVByte) {
        return prepare(unlocked, to, amount, satPerVByte, CoinControl.ANY);
    }

    /** {@link #prepare(WalletKeys, Address, Coin, long)} from the coins {@code control} allows. */
    public PreparedPayment prepare(
            WalletKeys unlocked, Address to, Coin amount, long satPerVByte, CoinControl control) {
        Unsigned u = build(unlocked, to, amount, satPerVByte, control);
        signAll(u.tx(), u.selection().inputs(), unlocked);
        return u.payment(u.tx().serialize(), u.tx().getVsize());
    }

    /** {@link #preparePsbt(Address, Coin, long, CoinControl)} from any spendable coin. */
    public PsbtPayment preparePsbt(Address to, Coin amount, long satPerVByte) {
        return preparePsbt(to, amount, satPerVByte, CoinControl.ANY);
    }

    /**
     * Selects coins ({@code control}) and builds the unsigned payment as a BIP 174 PSBT with what a
     * signer needs ({@link PsbtUpdater}); works on a watch-only wallet. The change index moves as for a payment.
     */
    public PsbtPayment preparePsbt(Address to, Coin amount, long satPerVByte, CoinControl control) {
        Unsigned u = build(wallet.keys(), to, amount, satPerVByte, control);
        Psbt psbt =
                PsbtUpdater.update(wallet, Psbt.create(u.tx()), u.selection().inputs(), u.change());
        return new PsbtPayment(psbt, u.payment(u.tx().serialize(), u.selection().estimatedVBytes()));
    }

    /** An unsigned payment: its transaction, the coins it spends and its change address (null: none). */
    private record Unsigned(
            Transaction tx, Address recipient, Coin amount, long rate, CoinSelection selection, DerivedAddress change) {
        PreparedPayment payment(byte[] raw, int vsize) {
            return new PreparedPayment(
                    tx.getTxId(),
                    recipient,
                    amount,
                    selection.fee(),
                    rate,
                    vsize,
                    selection.change(),
                    change == null ? null : change.address(),
                    selection.inputs().size(),
                    raw);
        }
    }

    private Unsigned build(WalletKeys unlocked, Address to, Coin amount, long satPerVByte, CoinControl control) {
        // A testnet base58 address is also a regtest one; a bech32 address must carry our prefix.
        Address recipient = AddressDecoder.forNetwork(to, wallet.network());
        // Confirmed, mature and not held by a pending payment: exactly what `balance` calls spendable.
        List<Utxo> spendable = control.apply(
                wallet.ledger().spendable(wallet.headers().tipHeight()),
                wallet.ledger().utxos(false));
        AddressKind changeKind = CHANGE_KINDS.stream()
                .filter(k -> unlocked.account(k).isPresent())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no P2WPKH, P2PKH or multisig account to receive change"));
        Script recipientScript = ScriptBuilder.createOutputScript(recipient);
        Coin dust = Coin.valueOf(Dust.threshold(recipientScript.program()));
        if (amount.isLessThan(dust)) {
            throw new IllegalArgumentException(
                    "amount " + amount.value + " sat is below the dust limit of " + dust.value
                            + " sat for " + Dust.kindOf(recipientScript.program())
                            + " output (Bitcoin Core's relay rule): nodes would not relay the payment; send at least "
                            + dust.toPlainString() + " BTC");
        }
        DerivedAddress peekChange = unlocked.account(changeKind).orElseThrow().derive(true, 0);
        CoinSelection sel = CoinSelector.select(
                spendable,
                this::inputVBytes,
                amount,
                satPerVByte,
                recipientScript.program().length,
                peekChange.script().bytes());

        Transaction tx = new Transaction();
        tx.addOutput(amount, recipientScript);
        DerivedAddress change = null;
        if (sel.hasChange()) {
            change = wallet.keys().nextChange(changeKind);
            tx.addOutput(sel.change(), change.address());
        }
        for (Utxo u : sel.inputs()) {
            tx.addInput(new TransactionInput(tx, new byte[0], u.outpoint(), u.value()).withSequence(RBF_SEQUENCE));
        }
        return new Unsigned(tx, recipient, amount, satPerVByte, sel, change);
    }

    /**
     * Offers the payment to each source in turn until one confirms that its node accepted it;
     * only then is it recorded as pending and the wallet saved. If none does, nothing is recorded
     * (its coins stay spendable) and a {@link PaymentNotAcceptedException} names each source and why.
     */
    public Sha256Hash broadcast(PreparedPayment payment, List<? extends ChainSource> sources) {
        return broadcast(Transaction.read(java.nio.ByteBuffer.wrap(payment.raw())), sources);
    }

    /** {@link #broadcast(PreparedPayment, List)} of a transaction signed elsewhere (a finalized PSBT's). */
    public Sha256Hash broadcast(Transaction tx, List<? extends ChainSource> sources) {
        List<String> errors = new ArrayList<>();
        for (ChainSource s : sources) {
            try {
                Sha256Hash txid = s.broadcast(tx.serialize());
                if (!txid.equals(tx.getTxId())) {
                    errors.add(s.name() + " answered txid " + txid + " for " + tx.getTxId());
                    continue;
                }
                if (wallet.ledger().isRelevant(tx)) {
                    wallet.ledger().put(WalletTx.of(tx, WalletTx.PENDING, null));
                    wallet.save();
                }
                return txid;
            } catch (SourceException e) {
                errors.add(e.getMessage());
            }
        }
        throw new PaymentNotAcceptedException(tx.getTxId(), errors);
    }

    /** Signs input i of {@code tx} as the wallet's coin {@code inputs.get(i)}, each checked before it is used. */
    void signAll(Transaction tx, List<Utxo> inputs, WalletKeys unlocked) {
        // A taproot signature commits to every input's amount and script, so all are passed.
        List<TaprootSighash.SpentOutput> spent = inputs.stream()
                .map(u -> new TaprootSighash.SpentOutput(
                        u.value().value, u.script().bytes()))
                .toList();
        for (int i = 0; i < inputs.size(); i++) {
            sign(tx, i, inputs.get(i), unlocked, spent);
        }
    }

    /** The size of the input spending the wallet's coin {@code u} once signed (an upper bound). */
    int inputVBytes(Utxo u) {
        DerivedAddress a = wallet.keys()
                .lookup(u.script())
                .orElseThrow(() -> new IllegalStateException("coin " + u.outpoint() + " is not the wallet's"));
        return TxSize.inputVBytes(wallet.keys().account(a.kind()).orElseThrow(), a);
    }

    private void sign(Transaction tx, int index, Utxo u, WalletKeys unlocked, List<TaprootSighash.SpentOutput> spent) {
        DerivedAddress a = wallet.keys().lookup(u.script()).orElseThrow();
        DeterministicKey key = unlocked.account(a.kind()).orElseThrow().key(a.change(), a.index());
        if (!key.hasPrivKey()) {
            throw new IllegalStateException("no private key for " + a.address() + ": unlock the wallet first");
        }
        TransactionInput in = tx.getInput(index);
        Script scriptPubKey = Script.parse(u.script().bytes());
        TransactionInput signed;
        if (a.kind() == AddressKind.P2TR) {
            tx.replaceInput(index, in.withWitness(signTaprootKeyPath(tx, index, key, u, spent)));
            return;
        }
        if (a.kind() == AddressKind.P2WPKH) {
            Script scriptCode = ScriptBuilder.createP2PKHOutputScript(key);
            TransactionSignature sig =
                    tx.calculateWitnessSignature(index, key, scriptCode, u.value(), Transaction.SigHash.ALL, false);
            signed = in.withWitness(TransactionWitness.redeemP2WPKH(sig, key));
        } else {
            TransactionSignature sig = tx.calculateSignature(index, key, scriptPubKey, Transaction.SigHash.ALL, false);
            signed = in.withScriptSig(ScriptBuilder.createInputScript(sig, key));
        }
        tx.replaceInput(index, signed);
        try {
            Script sigScript = signed.getScriptSig();
            sigScript.correctlySpends(tx, index, signed.getWitness(), u.value(), scriptPubKey, Script.ALL_VERIFY_FLAGS);
        } catch (ScriptException e) {
            throw new IllegalStateException("signed input " + index + " does not verify: " + e.getMessage(), e);
        }
    }

    /**
     * BIP 86 key-path spend: a BIP 340 signature with the tweaked key over the BIP 341
     * SIGHASH_DEFAULT message, checked against the output key before it is used. bitcoinj's
     * interpreter cannot check taproot, so the check is ours.
     */
    private TransactionWitness signTaprootKeyPath(
            Transaction tx, int index, DeterministicKey key, Utxo u, List<TaprootSighash.SpentOutput> spent) {
        byte[] sighash = TaprootSighash.hash(tx, index, spent, TaprootSighash.SIGHASH_DEFAULT);
        byte[] tweaked = Taproot.tweakPrivateKey(key.getPrivKeyBytes(), null);
        byte[] auxRand = new byte[32];
        random.nextBytes(auxRand);
        byte[] sig = Schnorr.sign(sighash, tweaked, auxRand);
        byte[] script = u.script().bytes();
        byte[] outputKey = java.util.Arrays.copyOfRange(script, 2, 34);
        if (script.length != 34 || !Schnorr.verify(sig, sighash, outputKey)) {
            throw new IllegalStateException("taproot signature for input " + index + " does not verify");
        }
        return TransactionWitness.of(sig);
    }
}
