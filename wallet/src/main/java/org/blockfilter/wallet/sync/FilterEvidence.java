package org.blockfilter.wallet.sync;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.crypto.internal.CryptoUtils;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.bitcoinj.script.ScriptChunk;
import org.bitcoinj.script.ScriptException;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.wallet.keys.OutputScript;

/**
 * What a verified block proves about its BIP 158 basic filter, without the spent outputs.
 *
 * <p>The block is authentic (it hashes to a header in the verified chain and its transactions
 * hash to the merkle root), so every one of its output scripts (minus empty and OP_RETURN ones)
 * must be in its filter, and a GCS has no false negatives: a filter that does not match one of
 * them is provably not the block's filter. The same holds for the prevout scripts the wallet knows
 * exactly (outputs it owns that the block spends). For the other inputs the prevout script is
 * reconstructed from the spending input where the input's form pins it down (as neutrino does):
 * P2WPKH (empty scriptSig, witness [sig, 33-byte key]), P2SH-P2WPKH (scriptSig pushes a
 * 0014-redeem script, witness [sig, key]) and P2PKH (scriptSig [sig, key], no witness). These are
 * strong evidence, not proof: a valid spend of an unusual script could look the same. The
 * element count N of the true filter lies between the number of distinct required scripts and
 * outputs + inputs. When every input's prevout could be reconstructed the filter is rebuilt and
 * compared byte for byte. Taproot key-path and other script spends cannot be reconstructed.
 *
 * <p>Immutable; thread-safe.
 */
public final class FilterEvidence {
    private final Set<OutputScript> required;
    private final List<OutputScript> requiredList;
    private final List<byte[]> requiredBytes;
    private final int maxElements;
    private final Optional<BasicFilter> rebuilt;

    private FilterEvidence(Set<OutputScript> required, int maxElements, Optional<BasicFilter> rebuilt) {
        this.required = required;
        this.requiredList = List.copyOf(required);
        this.requiredBytes = requiredList.stream().map(OutputScript::bytes).toList();
        this.maxElements = maxElements;
        this.rebuilt = rebuilt;
    }

    /**
     * @param knownPrevouts prevout scripts the wallet knows exactly (its own outputs), looked up by outpoint; may return null
     */
    public static FilterEvidence of(Block block, Function<TransactionOutPoint, byte[]> knownPrevouts) {
        Set<OutputScript> required = new LinkedHashSet<>();
        Map<TransactionOutPoint, byte[]> prevouts = new HashMap<>();
        int outputs = 0;
        int inputs = 0;
        boolean complete = true;
        for (Transaction tx : block.getTransactions()) {
            for (TransactionOutput out : tx.getOutputs()) {
                outputs++;
                byte[] s = out.getScriptBytes();
                if (s.length > 0 && (s[0] & 0xff) != 0x6a) {
                    required.add(OutputScript.of(s));
                }
            }
            if (tx.isCoinBase()) {
                continue;
            }
            for (TransactionInput in : tx.getInputs()) {
                inputs++;
                byte[] known = knownPrevouts.apply(in.getOutpoint());
                byte[] script = known != null ? known : reconstruct(in).orElse(null);
                if (script == null) {
                    complete = false;
                    continue;
                }
                prevouts.put(in.getOutpoint(), script);
                if (script.length > 0) {
                    required.add(OutputScript.of(script));
                }
            }
        }
        Optional<BasicFilter> rebuilt = Optional.empty();
        if (complete) {
            rebuilt = Optional.of(BasicFilter.build(block, prevouts::get));
        }
        return new FilterEvidence(Set.copyOf(required), outputs + inputs, rebuilt);
    }

    /** Why {@code candidate} cannot be the block's filter, or empty when the evidence does not refute it. */
    public Optional<String> refute(BasicFilter candidate) {
        // One pass over the candidate for all scripts: a match per script decodes the whole filter
        // each time, quadratic in a mainnet block's ~7,000 elements.
        int absent = candidate.firstAbsent(requiredBytes);
        if (absent >= 0) {
            return Optional.of(
                    "does not contain script " + requiredList.get(absent).hex() + " that the block requires");
        }
        if (candidate.size() < required.size()) {
            return Optional.of(
                    "has " + candidate.size() + " elements but the block requires at least " + required.size());
        }
        if (candidate.size() > maxElements) {
            return Optional.of("has " + candidate.size() + " elements but the block has only " + maxElements
                    + " outputs and inputs");
        }
        if (rebuilt.isPresent() && !java.util.Arrays.equals(rebuilt.get().bytes(), candidate.bytes())) {
            return Optional.of("differs from the filter rebuilt from the block (all prevout scripts reconstructed)");
        }
        return Optional.empty();
    }

    /** True when the filter was rebuilt from the block, so a candidate that passes is the filter byte for byte. */
    public boolean decisive() {
        return rebuilt.isPresent();
    }

    static Optional<byte[]> reconstruct(TransactionInput in) {
        try {
            byte[] scriptSig = in.getScriptBytes();
            TransactionWitness w = in.getWitness();
            boolean p2wpkhWitness = w.getPushCount() == 2 && isCompressedKey(w.getPush(1));
            if (scriptSig.length == 0 && p2wpkhWitness) {
                return Optional.of(ScriptBuilder.createP2WPKHOutputScript(CryptoUtils.sha256hash160(w.getPush(1)))
                        .program());
            }
            List<ScriptChunk> chunks = Script.parse(scriptSig).chunks();
            if (p2wpkhWitness
                    && chunks.size() == 1
                    && chunks.get(0).data != null
                    && chunks.get(0).data.length == 22
                    && chunks.get(0).data[0] == 0x00
                    && chunks.get(0).data[1] == 0x14) {
                return Optional.of(ScriptBuilder.createP2SHOutputScript(CryptoUtils.sha256hash160(chunks.get(0).data))
                        .program());
            }
            if (w.getPushCount() == 0
                    && chunks.size() == 2
                    && chunks.get(1).data != null
                    && ECKey.isPubKeyCanonical(chunks.get(1).data)) {
                return Optional.of(ScriptBuilder.createP2PKHOutputScript(CryptoUtils.sha256hash160(chunks.get(1).data))
                        .program());
            }
        } catch (ScriptException | IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static boolean isCompressedKey(byte[] b) {
        return b.length == 33 && (b[0] == 0x02 || b[0] == 0x03);
    }
}
