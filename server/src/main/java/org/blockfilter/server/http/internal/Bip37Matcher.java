package org.blockfilter.server.http.internal;

import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.PartialMerkleTree;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptPattern;

import java.util.ArrayList;
import java.util.List;

/**
 * What a full node does for a BIP 37 peer: Bitcoin Core's {@code CBloomFilter::IsRelevantAndUpdate}
 * for each transaction of a block (txid; data pushes of each output script, inserting the outpoint
 * as the update flags say; spent outpoints; data pushes of each scriptSig), then the merkle block.
 * Script pushes are read as Core's {@code GetOp} does, so an unparseable script is read up to
 * its first bad opcode. Stateless.
 */
final class Bip37Matcher {
    private static final int OP_PUSHDATA1 = 0x4c;
    private static final int OP_PUSHDATA2 = 0x4d;
    private static final int OP_PUSHDATA4 = 0x4e;

    private Bip37Matcher() {
    }

    record Match(FilteredBlock merkleBlock, List<Transaction> transactions) {
    }

    static Match match(Block block, Bip37Filter filter) {
        List<Transaction> txs = block.getTransactions();
        List<Sha256Hash> txids = new ArrayList<>(txs.size());
        List<Transaction> matched = new ArrayList<>();
        byte[] bits = new byte[(txs.size() + 7) / 8];
        for (int i = 0; i < txs.size(); i++) {
            Transaction tx = txs.get(i);
            txids.add(tx.getTxId());
            if (isRelevantAndUpdate(tx, filter)) {
                bits[i / 8] |= (byte) (1 << (i % 8));
                matched.add(tx);
            }
        }
        PartialMerkleTree pmt = PartialMerkleTree.buildFromLeaves(bits, txids);
        return new Match(new FilteredBlock(block.cloneAsHeader(), pmt), matched);
    }

    static boolean isRelevantAndUpdate(Transaction tx, Bip37Filter filter) {
        byte[] txid = tx.getTxId().getReversedBytes();
        boolean found = filter.contains(txid);
        List<TransactionOutput> outputs = tx.getOutputs();
        for (int i = 0; i < outputs.size(); i++) {
            byte[] script = outputs.get(i).getScriptBytes();
            if (anyPushMatches(script, filter)) {
                found = true;
                int mode = filter.updateMode();
                if (mode == Bip37Filter.UPDATE_ALL
                        || (mode == Bip37Filter.UPDATE_P2PUBKEY_ONLY && isPubKeyOrMultisig(script))) {
                    filter.insert(outpoint(txid, i));
                }
            }
        }
        if (found) {
            return true;
        }
        for (TransactionInput input : tx.getInputs()) {
            byte[] prevout = outpoint(input.getOutpoint().hash().getReversedBytes(), input.getOutpoint().index());
            if (filter.contains(prevout) || anyPushMatches(input.getScriptBytes(), filter)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a non-empty data push of the script is in the filter; stops at the first unparseable op. */
    static boolean anyPushMatches(byte[] script, Bip37Filter filter) {
        int pc = 0;
        while (pc < script.length) {
            int opcode = script[pc++] & 0xff;
            if (opcode > OP_PUSHDATA4) {
                continue;
            }
            long size;
            if (opcode < OP_PUSHDATA1) {
                size = opcode;
            } else {
                int width = opcode == OP_PUSHDATA1 ? 1 : opcode == OP_PUSHDATA2 ? 2 : 4;
                if (script.length - pc < width) {
                    return false;
                }
                size = 0;
                for (int i = 0; i < width; i++) {
                    size |= (long) (script[pc + i] & 0xff) << (8 * i);
                }
                pc += width;
            }
            if (size > script.length - pc) {
                return false;
            }
            if (size > 0) {
                byte[] data = java.util.Arrays.copyOfRange(script, pc, pc + (int) size);
                if (filter.contains(data)) {
                    return true;
                }
            }
            pc += (int) size;
        }
        return false;
    }

    private static boolean isPubKeyOrMultisig(byte[] scriptBytes) {
        try {
            Script script = Script.parse(scriptBytes);
            return ScriptPattern.isP2PK(script) || ScriptPattern.isSentToMultisig(script);
        } catch (RuntimeException unparseable) {
            return false; // Core's Solver calls it nonstandard
        }
    }

    private static byte[] outpoint(byte[] txidInternal, long index) {
        byte[] out = java.util.Arrays.copyOf(txidInternal, 36);
        for (int i = 0; i < 4; i++) {
            out[32 + i] = (byte) (index >>> (8 * i));
        }
        return out;
    }
}
