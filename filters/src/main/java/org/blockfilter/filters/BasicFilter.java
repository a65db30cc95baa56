package org.blockfilter.filters;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.script.ScriptOpCodes;
import org.blockfilter.filters.gcs.GolombCodedSet;

/**
 * A block's BIP 158 basic filter: a {@link GolombCodedSet} with P = {@value Bip158#BASIC_P},
 * M = {@value Bip158#BASIC_M}, keyed by the first 16 bytes of the block hash (internal order), holding
 * every output script of the block except empty and OP_RETURN-led ones, and the script of every output
 * a non-coinbase input spends (empty ones skipped), each distinct script once.
 *
 * <p>Immutable and thread-safe; copies bytes in and out; equality is by block hash and filter bytes.
 * Hashes are bitcoinj {@link Sha256Hash} in display order. Nulls are rejected with
 * {@link NullPointerException}.
 *
 * @see <a href="https://github.com/bitcoin/bips/blob/master/bip-0158.mediawiki#contents">BIP 158: contents</a>
 */
public final class BasicFilter {

    private final Sha256Hash blockHash;
    private final GolombCodedSet set;
    private final Sha256Hash filterHash;

    private BasicFilter(Sha256Hash blockHash, GolombCodedSet set) {
        this.blockHash = blockHash;
        this.set = set;
        this.filterHash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(set.encoded()));
    }

    /**
     * Builds the basic filter of {@code block}.
     *
     * @param prevouts the script each non-coinbase input spends; whatever it throws for an unknown
     *                 outpoint propagates
     */
    public static BasicFilter build(Block block, PrevoutScripts prevouts) {
        Set<FilterElement> elements = elements(block, prevouts);
        List<byte[]> items = new ArrayList<>(elements.size());
        for (FilterElement e : elements) {
            items.add(e.rawBytes());
        }
        Sha256Hash hash = block.getHash();
        return new BasicFilter(hash, GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, key(hash), items));
    }

    /**
     * The distinct scripts that go into {@code block}'s basic filter, outputs first then spent scripts, in
     * block order. Output scripts are taken as raw bytes, never parsed, so a script that does not parse
     * (as in some coinbases) is included as it is.
     */
    public static Set<FilterElement> elements(Block block, PrevoutScripts prevouts) {
        Objects.requireNonNull(block, "block");
        Objects.requireNonNull(prevouts, "prevouts");
        Set<FilterElement> out = new LinkedHashSet<>();
        List<Transaction> txs = block.getTransactions();
        if (txs == null) {
            throw new IllegalArgumentException("block " + block.getHash() + " has no transactions (header only)");
        }
        for (Transaction tx : txs) {
            for (TransactionOutput output : tx.getOutputs()) {
                byte[] script = output.getScriptBytes();
                if (script.length > 0 && (script[0] & 0xff) != ScriptOpCodes.OP_RETURN) {
                    out.add(FilterElement.of(script));
                }
            }
        }
        for (Transaction tx : txs) {
            if (tx.isCoinBase()) {
                continue;
            }
            for (TransactionInput input : tx.getInputs()) {
                byte[] script = prevouts.scriptFor(input.getOutpoint());
                if (script == null) {
                    throw new IllegalStateException("PrevoutScripts returned null for " + input.getOutpoint());
                }
                if (script.length > 0) {
                    out.add(FilterElement.of(script));
                }
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * A filter received as bytes for the block {@code blockHash}: decoded strictly, see
     * {@link GolombCodedSet#decode}.
     *
     * @throws org.blockfilter.filters.gcs.FilterFormatException if the bytes are not a valid filter
     */
    public static BasicFilter fromBytes(Sha256Hash blockHash, byte[] encoded) {
        Objects.requireNonNull(blockHash, "blockHash");
        return new BasicFilter(
                blockHash, GolombCodedSet.decode(Bip158.BASIC_P, Bip158.BASIC_M, key(blockHash), encoded));
    }

    /** The SipHash key of a block's filter: the first 16 bytes of its hash in internal (wire) order. */
    public static byte[] key(Sha256Hash blockHash) {
        byte[] internal = blockHash.serialize();
        byte[] key = new byte[Bip158.KEY_LENGTH];
        System.arraycopy(internal, 0, key, 0, key.length);
        return key;
    }

    /** The block this filter is for. */
    public Sha256Hash blockHash() {
        return blockHash;
    }

    /** A copy of the serialized filter (CompactSize N + Golomb-Rice bits), as {@code cfilter} carries it. */
    public byte[] bytes() {
        return set.encoded();
    }

    /** The underlying set. */
    public GolombCodedSet set() {
        return set;
    }

    /** double-SHA256 of {@link #bytes()}, display order. */
    public Sha256Hash filterHash() {
        return filterHash;
    }

    /** N, the number of distinct scripts. */
    public int size() {
        return set.size();
    }

    /** Whether {@code script} may be in the block (false-positive rate 1/M). */
    public boolean match(byte[] script) {
        return set.match(script);
    }

    /** Whether any of {@code scripts} may be in the block. An empty query matches nothing. */
    public boolean matchAny(Collection<byte[]> scripts) {
        return set.matchAny(scripts);
    }

    /**
     * The position in {@code scripts} of the first script the block cannot contain, or -1 when it may
     * contain them all; one pass over the filter, however many scripts are asked.
     */
    public int firstAbsent(List<byte[]> scripts) {
        return set.firstAbsent(scripts);
    }

    /**
     * Per script of {@code scripts}, whether the block may contain it ({@link #match} of each); one pass
     * over the filter, however many scripts are asked.
     */
    public boolean[] matchEach(List<byte[]> scripts) {
        return set.matchEach(scripts);
    }

    /** Whether any of {@code elements} may be in the block. An empty query matches nothing. */
    public boolean matchAnyElement(Collection<FilterElement> elements) {
        Objects.requireNonNull(elements, "elements");
        List<FilterElement> list = List.copyOf(elements);
        return set.matchAny(new AbstractList<byte[]>() {
            @Override
            public byte[] get(int index) {
                return list.get(index).rawBytes();
            }

            @Override
            public int size() {
                return list.size();
            }
        });
    }

    /** This filter's BIP 157 header, given the previous block's filter header. */
    public Sha256Hash header(Sha256Hash prevHeader) {
        return FilterHeaders.next(filterHash, prevHeader);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        return o instanceof BasicFilter
                && blockHash.equals(((BasicFilter) o).blockHash)
                && set.equals(((BasicFilter) o).set);
    }

    @Override
    public int hashCode() {
        return 31 * blockHash.hashCode() + set.hashCode();
    }

    @Override
    public String toString() {
        return "BasicFilter[block=" + blockHash + ", N=" + set.size() + ", " + set.encodedLength() + " bytes, hash="
                + filterHash + "]";
    }
}
