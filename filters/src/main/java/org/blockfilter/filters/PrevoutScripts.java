package org.blockfilter.filters;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;

/**
 * The script of the output an input spends: a block alone does not contain it, so whoever builds a basic
 * filter supplies this lookup (from a UTXO set, undo data, or an RPC).
 *
 * <p>Implementations return the script bytes (possibly empty, never null) and throw (e.g.
 * {@link NoSuchElementException}) for an outpoint they do not know.
 */
@FunctionalInterface
public interface PrevoutScripts {

    /** The scriptPubKey of the output {@code outpoint} names. */
    byte[] scriptFor(TransactionOutPoint outpoint);

    /**
     * A lookup from scripts listed in the order the block's non-coinbase inputs spend them (the form of the
     * BIP 158 test vectors and of Bitcoin Core's undo data).
     *
     * @throws IllegalArgumentException if the list length differs from the number of non-coinbase inputs
     */
    static PrevoutScripts inInputOrder(Block block, List<byte[]> scripts) {
        Objects.requireNonNull(block, "block");
        Objects.requireNonNull(scripts, "scripts");
        Map<TransactionOutPoint, byte[]> byOutpoint = new HashMap<>();
        int i = 0;
        for (Transaction tx : block.getTransactions()) {
            if (tx.isCoinBase()) {
                continue;
            }
            for (TransactionInput input : tx.getInputs()) {
                if (i == scripts.size()) {
                    throw new IllegalArgumentException("fewer prevout scripts (" + scripts.size()
                            + ") than non-coinbase inputs in block " + block.getHash());
                }
                byOutpoint.put(
                        input.getOutpoint(),
                        Objects.requireNonNull(scripts.get(i++), "script").clone());
            }
        }
        if (i != scripts.size()) {
            throw new IllegalArgumentException("more prevout scripts (" + scripts.size()
                    + ") than non-coinbase inputs (" + i + ") in block " + block.getHash());
        }
        return fromMap(byOutpoint);
    }

    /** A lookup backed by a map (not copied: the map must not change while in use). */
    static PrevoutScripts fromMap(Map<TransactionOutPoint, byte[]> scripts) {
        Objects.requireNonNull(scripts, "scripts");
        return outpoint -> {
            byte[] script = scripts.get(outpoint);
            if (script == null) {
                throw new NoSuchElementException("no prevout script for " + outpoint);
            }
            return script;
        };
    }
}
