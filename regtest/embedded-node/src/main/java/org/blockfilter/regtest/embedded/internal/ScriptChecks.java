package org.blockfilter.regtest.embedded.internal;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptChunk;
import org.bitcoinj.script.ScriptError;
import org.bitcoinj.script.ScriptException;
import org.bitcoinj.script.ScriptOpCodes;
import org.bitcoinj.script.ScriptPattern;

/**
 * Checks that an input correctly spends the output it references, with bitcoinj's script
 * interpreter and the consensus flags active on regtest (P2SH, DERSIG, NULLDUMMY, CLTV, CSV).
 *
 * <p>What bitcoinj can verify is verified in full: legacy scripts (P2PK, P2PKH, bare multisig,
 * P2SH), and P2WPKH spent directly or nested in P2SH (BIP 143 signature). bitcoinj has no
 * interpreter for witness scripts or Taproot, so for P2WSH (direct or nested) only the
 * witness-script hash is checked, and for P2TR and future witness versions only the shape
 * (empty scriptSig, non-empty witness). Witnesses on non-witness inputs and scriptSigs on
 * native witness inputs are rejected as Core does. Stateless.
 */
public final class ScriptChecks {
    static final Set<Script.VerifyFlag> FLAGS = EnumSet.of(
            Script.VerifyFlag.P2SH,
            Script.VerifyFlag.DERSIG,
            Script.VerifyFlag.NULLDUMMY,
            Script.VerifyFlag.CHECKLOCKTIMEVERIFY,
            Script.VerifyFlag.CHECKSEQUENCEVERIFY);

    private ScriptChecks() {}

    /**
     * Verifies input {@code index} of {@code tx} against the spent output.
     *
     * @throws ScriptException with the failure if it does not spend it correctly
     */
    public static void verify(Transaction tx, int index, byte[] prevScript, long prevValue) {
        TransactionInput input = tx.getInput(index);
        TransactionWitness witness = input.getWitness();
        Coin value = Coin.valueOf(prevValue);
        Script scriptPubKey = Script.parse(prevScript);
        Script scriptSig = Script.parse(input.getScriptBytes());
        if (isWitnessProgram(prevScript)) {
            if (input.getScriptBytes().length != 0) {
                throw new ScriptException(ScriptError.SCRIPT_ERR_WITNESS_MALLEATED, "Witness requires empty scriptSig");
            }
            verifyWitnessProgram(tx, index, scriptSig, witness, value, prevScript);
            return;
        }
        if (ScriptPattern.isP2SH(scriptPubKey)) {
            scriptSig.correctlySpends(tx, index, witness, value, scriptPubKey, FLAGS);
            List<ScriptChunk> chunks = scriptSig.chunks();
            byte[] redeem = chunks.isEmpty() ? null : chunks.get(chunks.size() - 1).data;
            if (redeem != null && isWitnessProgram(redeem)) {
                if (chunks.size() != 1) {
                    throw new ScriptException(
                            ScriptError.SCRIPT_ERR_WITNESS_MALLEATED_P2SH,
                            "Witness requires only-redeemscript scriptSig");
                }
                verifyWitnessProgram(tx, index, scriptSig, witness, value, redeem);
                return;
            }
        } else {
            scriptSig.correctlySpends(tx, index, witness, value, scriptPubKey, FLAGS);
        }
        if (witness.getPushCount() != 0) {
            throw new ScriptException(
                    ScriptError.SCRIPT_ERR_WITNESS_UNEXPECTED, "Witness provided for non-witness script");
        }
    }

    private static void verifyWitnessProgram(
            Transaction tx, int index, Script scriptSig, TransactionWitness witness, Coin value, byte[] program) {
        Script programScript = Script.parse(program);
        if (ScriptPattern.isP2WPKH(programScript)) {
            if (witness.getPushCount() != 2) {
                throw new ScriptException(
                        ScriptError.SCRIPT_ERR_WITNESS_PROGRAM_MISMATCH, "Witness program hash mismatch");
            }
            // bitcoinj's P2WPKH branch checks the pubkey hash and the BIP 143 signature.
            scriptSig.correctlySpends(tx, index, witness, value, programScript, FLAGS);
        } else if (ScriptPattern.isP2WSH(programScript)) {
            if (witness.getPushCount() == 0) {
                throw new ScriptException(
                        ScriptError.SCRIPT_ERR_WITNESS_PROGRAM_WITNESS_EMPTY,
                        "Witness program was passed an empty witness");
            }
            byte[] witnessScript = witness.getPush(witness.getPushCount() - 1);
            if (!Arrays.equals(Sha256Hash.hash(witnessScript), ScriptPattern.extractHashFromP2WH(programScript))) {
                throw new ScriptException(
                        ScriptError.SCRIPT_ERR_WITNESS_PROGRAM_MISMATCH, "Witness program hash mismatch");
            }
        } else if (program[0] == ScriptOpCodes.OP_0) {
            // Version 0 programs must be 20 or 32 bytes.
            throw new ScriptException(
                    ScriptError.SCRIPT_ERR_WITNESS_PROGRAM_WRONG_LENGTH, "Witness program has incorrect length");
        } else if (ScriptPattern.isP2TR(programScript) && witness.getPushCount() == 0) {
            throw new ScriptException(
                    ScriptError.SCRIPT_ERR_WITNESS_PROGRAM_WITNESS_EMPTY,
                    "Witness program was passed an empty witness");
        }
    }

    /** BIP 141 witness program: a version opcode (OP_0, OP_1..OP_16) and one push of 2 to 40 bytes. */
    public static boolean isWitnessProgram(byte[] script) {
        if (script.length < 4 || script.length > 42) {
            return false;
        }
        int version = script[0] & 0xff;
        if (version != ScriptOpCodes.OP_0 && (version < ScriptOpCodes.OP_1 || version > ScriptOpCodes.OP_16)) {
            return false;
        }
        return (script[1] & 0xff) + 2 == script.length;
    }
}
