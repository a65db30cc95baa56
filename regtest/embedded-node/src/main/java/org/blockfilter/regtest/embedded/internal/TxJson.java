package org.blockfilter.regtest.embedded.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HexFormat;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptException;
import org.bitcoinj.script.ScriptOpCodes;
import org.bitcoinj.script.ScriptPattern;

/** Bitcoin Core's decoded-transaction JSON ({@code getrawtransaction txid true}). Stateless. */
final class TxJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final HexFormat HEX = HexFormat.of();

    private TxJson() {}

    static ObjectNode decode(Transaction tx) {
        ObjectNode o = NODES.objectNode();
        byte[] raw = tx.serialize();
        o.put("txid", tx.getTxId().toString());
        o.put("hash", tx.getWTxId().toString());
        o.put("version", tx.getVersion());
        o.put("size", raw.length);
        o.put("vsize", tx.getVsize());
        o.put("weight", tx.getWeight());
        o.put("locktime", tx.lockTime().rawValue());
        ArrayNode vin = o.putArray("vin");
        for (TransactionInput in : tx.getInputs()) {
            ObjectNode i = vin.addObject();
            if (in.isCoinBase()) {
                i.put("coinbase", HEX.formatHex(in.getScriptBytes()));
            } else {
                i.put("txid", in.getOutpoint().hash().toString());
                i.put("vout", in.getOutpoint().index());
                i.putObject("scriptSig").put("hex", HEX.formatHex(in.getScriptBytes()));
            }
            TransactionWitness w = in.getWitness();
            if (w.getPushCount() > 0) {
                ArrayNode a = i.putArray("txinwitness");
                for (int k = 0; k < w.getPushCount(); k++) {
                    a.add(HEX.formatHex(w.getPush(k)));
                }
            }
            i.put("sequence", in.getSequenceNumber());
        }
        ArrayNode vout = o.putArray("vout");
        for (TransactionOutput out : tx.getOutputs()) {
            ObjectNode v = vout.addObject();
            v.put("value", RpcMethods.btc(out.getValue().value));
            v.put("n", out.getIndex());
            ObjectNode spk = v.putObject("scriptPubKey");
            byte[] script = out.getScriptBytes();
            spk.put("hex", HEX.formatHex(script));
            spk.put("type", type(script));
            try {
                spk.put(
                        "address",
                        Script.parse(script)
                                .getToAddress(BitcoinNetwork.REGTEST, false)
                                .toString());
            } catch (ScriptException | IllegalArgumentException e) {
                // no address form for this script, as Core omits the field
            }
        }
        o.put("hex", HEX.formatHex(raw));
        return o;
    }

    /** Core's script type names. */
    static String type(byte[] program) {
        Script s;
        try {
            s = Script.parse(program);
        } catch (ScriptException e) {
            return "nonstandard";
        }
        if (ScriptPattern.isP2PKH(s)) {
            return "pubkeyhash";
        } else if (ScriptPattern.isP2SH(s)) {
            return "scripthash";
        } else if (ScriptPattern.isP2WPKH(s)) {
            return "witness_v0_keyhash";
        } else if (ScriptPattern.isP2WSH(s)) {
            return "witness_v0_scripthash";
        } else if (ScriptPattern.isP2TR(s)) {
            return "witness_v1_taproot";
        } else if (program.length > 0 && (program[0] & 0xff) == ScriptOpCodes.OP_RETURN) {
            return "nulldata";
        } else if (ScriptPattern.isSentToMultisig(s)) {
            return "multisig";
        } else if (ScriptPattern.isP2PK(s)) {
            return "pubkey";
        } else if (ScriptChecks.isWitnessProgram(program)) {
            return "witness_unknown";
        }
        return "nonstandard";
    }
}
