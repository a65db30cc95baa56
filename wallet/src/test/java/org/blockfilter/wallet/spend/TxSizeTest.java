package org.blockfilter.wallet.spend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.crypto.TransactionSignature;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.wallet.keys.AddressKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The multisig input estimate against real signed transactions: a 1-input, 1-output spend of an
 * M-of-N {@code sortedmulti} P2WSH and P2SH-P2WSH output, signed with bitcoinj and checked by its
 * interpreter, is never larger than estimated and at most a few vbytes smaller (the estimate takes
 * 72-byte signatures, the overhead's half vbyte and each input rounded up).
 */
class TxSizeTest {
    @Test
    void theArithmeticOfTheComment() {
        // 2-of-3: witness script OP_2 + 3 * (1 + 33) + OP_3 + OP_CHECKMULTISIG = 105 bytes.
        assertEquals(105, TxSize.multisigInputVBytes(AddressKind.P2WSH, 2, 105));
        assertEquals(140, TxSize.multisigInputVBytes(AddressKind.P2SH_P2WSH, 2, 105));
        // A 15-of-20's 683-byte script takes a 3-byte length: 164 + 2 + 15 * 73 + 3 + 683 = 1947 WU.
        assertEquals(487, TxSize.multisigInputVBytes(AddressKind.P2WSH, 15, 683));
        assertThrows(IllegalArgumentException.class, () -> TxSize.inputVBytes(AddressKind.P2WSH));
        assertThrows(IllegalArgumentException.class, () -> TxSize.multisigInputVBytes(AddressKind.P2WPKH, 1, 35));
    }

    @ParameterizedTest(name = "{0}-of-{1} nested {2}")
    @CsvSource({"1,1,false", "2,3,false", "3,5,false", "1,1,true", "2,3,true", "3,5,true"})
    void theEstimateBoundsARealSignedSpend(int m, int n, boolean nested) {
        // Several key sets: signature lengths vary (71 or 72 bytes with the sighash byte, rarely less).
        for (int round = 0; round < 8; round++) {
            List<ECKey> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                keys.add(new ECKey());
            }
            keys.sort(ECKey.PUBKEY_COMPARATOR); // sortedmulti
            Script witnessScript = ScriptBuilder.createMultiSigOutputScript(m, keys);
            Script p2wsh = ScriptBuilder.createP2WSHOutputScript(witnessScript);
            Script spent = nested ? ScriptBuilder.createP2SHOutputScript(p2wsh) : p2wsh;
            Coin value = Coin.COIN;

            Transaction tx = new Transaction();
            tx.addOutput(Coin.CENT, ScriptBuilder.createP2WPKHOutputScript(new ECKey()));
            tx.addInput(new TransactionInput(
                    tx, new byte[0], new TransactionOutPoint(0, Sha256Hash.of(new byte[] {(byte) round})), value));
            if (nested) {
                tx.replaceInput(
                        0,
                        tx.getInput(0)
                                .withScriptSig(new ScriptBuilder()
                                        .data(p2wsh.program())
                                        .build()));
            }
            List<byte[]> witness = new ArrayList<>();
            witness.add(new byte[0]); // CHECKMULTISIG's dummy element
            for (ECKey k : keys.subList(0, m)) {
                TransactionSignature sig =
                        tx.calculateWitnessSignature(0, k, witnessScript, value, Transaction.SigHash.ALL, false);
                witness.add(sig.encodeToBitcoin());
            }
            witness.add(witnessScript.program());
            tx.replaceInput(0, tx.getInput(0).withWitness(TransactionWitness.of(witness)));
            tx.getInput(0)
                    .getScriptSig()
                    .correctlySpends(tx, 0, tx.getInput(0).getWitness(), value, spent, Script.ALL_VERIFY_FLAGS);

            AddressKind kind = nested ? AddressKind.P2SH_P2WSH : AddressKind.P2WSH;
            int estimate = TxSize.OVERHEAD_VB
                    + TxSize.multisigInputVBytes(kind, m, witnessScript.program().length)
                    + TxSize.outputVBytes(22);
            int real = tx.getVsize();
            assertTrue(estimate >= real, m + "-of-" + n + ": estimate " + estimate + " < real " + real);
            assertTrue(estimate - real <= 3, m + "-of-" + n + ": estimate " + estimate + ", real " + real);
        }
    }
}
