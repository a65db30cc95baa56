package org.blockfilter.filters.bloom;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.PartialMerkleTree;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.bloom.internal.CoreScripts;
import org.blockfilter.filters.wire.CompactSize;
import org.blockfilter.filters.wire.WireFormatException;
import org.blockfilter.filters.wire.WireReader;
import org.blockfilter.filters.wire.WireWriter;

/**
 * A BIP 37 Bloom filter that behaves as Bitcoin Core's {@code CBloomFilter}, built on bitcoinj's {@link BloomFilter}.
 *
 * <p>Bit setting and testing are bitcoinj's ({@code insert}, {@code contains}). What this class does itself,
 * because bitcoinj departs from Core there (each case has a test that shows it):
 * <ul>
 *   <li>sizing: Core computes the hash-function count with an integer division of bits by elements; bitcoinj
 *       divides in floating point and can pick one more function, so filters from the same arguments differ;
 *       it also forces at least one byte and one function where Core gives an empty filter;</li>
 *   <li>an empty filter matches everything (Core, CVE-2013-5700); bitcoinj divides by zero;</li>
 *   <li>transaction matching ({@link #isRelevantAndUpdate}): bitcoinj returns on a txid match before it
 *       updates the filter with matching outputs, tests empty pushes, throws on scripts it cannot parse and
 *       on {@code OP_1..OP_16} (taproot and bare multisig outputs), and uses looser P2PK/multisig patterns than
 *       Core's {@code Solver} for {@code UPDATE_P2PUBKEY_ONLY};</li>
 *   <li>strict decoding of {@code filterload}: bitcoinj's reader ignores trailing bytes and accepts unknown flags,
 *       which later make {@code getUpdateFlag} throw.</li>
 * </ul>
 *
 * <p>Mutable (insertion and matching with update flags change it) and not thread-safe. Null arguments are rejected.
 */
public final class Bip37Filter {
    private static final int FIELDS_AFTER_DATA = 4 + 4 + 1;

    private final BloomFilter bitcoinj;
    private final int sizeBytes;
    private final long hashFuncs;
    private final int tweak;
    private final UpdateFlag flag;

    private Bip37Filter(byte[] data, long hashFuncs, int tweak, UpdateFlag flag) {
        this.sizeBytes = data.length;
        this.hashFuncs = hashFuncs;
        this.tweak = tweak;
        this.flag = flag;
        this.bitcoinj = BloomFilter.read(ByteBuffer.wrap(encode(data, hashFuncs, tweak, flag)));
    }

    /**
     * A filter for {@code elements} elements at {@code falsePositiveRate}, sized as Bitcoin Core sizes it
     * ({@link BloomMath#bip37SizeBytes}, {@link BloomMath#bip37HashFuncs}).
     */
    public static Bip37Filter create(long elements, double falsePositiveRate, int tweak, UpdateFlag flag) {
        int size = BloomMath.bip37SizeBytes(elements, falsePositiveRate);
        return new Bip37Filter(new byte[size], BloomMath.bip37HashFuncs(size, elements), tweak, requireFlag(flag));
    }

    /** An empty filter with explicit parameters (size at most {@link Bip37#MAX_BLOOM_FILTER_SIZE}, functions at most {@link Bip37#MAX_HASH_FUNCS}). */
    public static Bip37Filter of(int sizeBytes, int hashFuncs, int tweak, UpdateFlag flag) {
        if (sizeBytes < 0 || sizeBytes > Bip37.MAX_BLOOM_FILTER_SIZE) {
            throw new IllegalArgumentException(
                    "size must be in [0, " + Bip37.MAX_BLOOM_FILTER_SIZE + "], got " + sizeBytes);
        }
        if (hashFuncs < 0 || hashFuncs > Bip37.MAX_HASH_FUNCS) {
            throw new IllegalArgumentException(
                    "hashFuncs must be in [0, " + Bip37.MAX_HASH_FUNCS + "], got " + hashFuncs);
        }
        return new Bip37Filter(new byte[sizeBytes], hashFuncs, tweak, requireFlag(flag));
    }

    /** A copy of a bitcoinj filter (its bytes, functions, tweak and flag). */
    public static Bip37Filter fromBitcoinj(BloomFilter filter) {
        return parse(filter.serialize());
    }

    /**
     * Decodes a {@code filterload} payload strictly: CompactSize length (canonical), at most
     * {@link Bip37#MAX_BLOOM_FILTER_SIZE} bytes of filter, uint32 nHashFuncs at most {@link Bip37#MAX_HASH_FUNCS},
     * uint32 nTweak, nFlags in {0, 1, 2}, and nothing after. Nothing is allocated before the length is checked.
     *
     * @throws BloomFilterFormatException naming the field, value and offset of the first problem
     */
    public static Bip37Filter parse(byte[] payload) {
        WireReader r = new WireReader(payload);
        try {
            byte[] data = r.varBytes("filter", Bip37.MAX_BLOOM_FILTER_SIZE);
            long funcsOffset = r.position();
            long funcs = r.u32le("nHashFuncs");
            if (funcs > Bip37.MAX_HASH_FUNCS) {
                throw new BloomFilterFormatException(
                        "nHashFuncs", funcsOffset, funcs + " exceeds MAX_HASH_FUNCS " + Bip37.MAX_HASH_FUNCS);
            }
            int tweak = r.i32le("nTweak");
            long flagsOffset = r.position();
            int flags = r.u8("nFlags");
            if (flags > UpdateFlag.UPDATE_P2PUBKEY_ONLY.wireValue()) {
                throw new BloomFilterFormatException(
                        "nFlags", flagsOffset, "unknown update flag " + flags + " (BIP 37 defines 0, 1, 2)");
            }
            r.end("end of message");
            return new Bip37Filter(data, funcs, tweak, UpdateFlag.ofWireValue(flags));
        } catch (WireFormatException e) {
            throw new BloomFilterFormatException(e);
        }
    }

    /**
     * Decodes a {@code filteradd} payload strictly: CompactSize length then that many bytes, at most
     * {@link Bip37#MAX_SCRIPT_ELEMENT_SIZE}, nothing after.
     *
     * @return a copy of the element to add
     * @throws BloomFilterFormatException naming the field, value and offset of the first problem
     */
    public static byte[] parseFilterAdd(byte[] payload) {
        WireReader r = new WireReader(payload);
        try {
            byte[] data = r.varBytes("element", Bip37.MAX_SCRIPT_ELEMENT_SIZE);
            r.end("end of message");
            return data;
        } catch (WireFormatException e) {
            throw new BloomFilterFormatException(e);
        }
    }

    /** The {@code filterload} payload for this filter's current bits. */
    public byte[] serialize() {
        return bitcoinj.serialize();
    }

    /** A bitcoinj filter with the same bytes, functions, tweak and flag (an independent copy). */
    public BloomFilter toBitcoinj() {
        return BloomFilter.read(ByteBuffer.wrap(serialize()));
    }

    /** The size of the bit array in bytes, as in {@code filterload} (BIP 37 allows at most 36,000). */
    public int sizeBytes() {
        return sizeBytes;
    }

    /** How many hash functions each element sets and tests (BIP 37 allows at most 50). */
    public int hashFuncs() {
        return (int) hashFuncs;
    }

    /**
     * The random value mixed into every hash function's seed, so that filters of the same elements differ between
     * wallets.
     */
    public int tweak() {
        return tweak;
    }

    /**
     * What a matching transaction adds to the filter: nothing, its outpoints, or only those of pay-to-pubkey and
     * multisig outputs.
     */
    public UpdateFlag updateFlag() {
        return flag;
    }

    /** A copy of the filter's bit array (bit i is bit i % 8 of byte i / 8). */
    public byte[] bits() {
        byte[] s = serialize();
        byte[] out = new byte[sizeBytes];
        System.arraycopy(s, s.length - FIELDS_AFTER_DATA - sizeBytes, out, 0, sizeBytes);
        return out;
    }

    /** The fraction of set bits, {@link BloomMath#measuredBitDensity}. */
    public double bitDensity() {
        return BloomMath.measuredBitDensity(bits());
    }

    /** Whether {@code element} may be in the set; always true for an empty filter, as in Core. */
    public boolean contains(byte[] element) {
        if (sizeBytes == 0) {
            return true;
        }
        return bitcoinj.contains(element);
    }

    /** Adds {@code element}; a no-op for an empty filter, as in Core. */
    public void insert(byte[] element) {
        if (sizeBytes != 0) {
            bitcoinj.insert(element);
        }
    }

    /** Adds an outpoint as BIP 37 serializes it: 32-byte txid (internal order), 4-byte little-endian index. */
    public void insert(TransactionOutPoint outpoint) {
        insert(outpoint.serialize());
    }

    /**
     * Core's {@code CBloomFilter::IsRelevantAndUpdate}: matches the txid, any non-empty data push in an output
     * script (adding that output's outpoint as the update flag says), and then spent outpoints and data pushes
     * in input scripts.
     */
    public boolean isRelevantAndUpdate(Transaction tx) {
        if (sizeBytes == 0) {
            return true;
        }
        Sha256Hash txid = tx.getTxId();
        boolean found = contains(txid.serialize());
        List<TransactionOutput> outputs = tx.getOutputs();
        for (int i = 0; i < outputs.size(); i++) {
            byte[] script = outputs.get(i).getScriptBytes();
            for (byte[] push : CoreScripts.dataPushes(script)) {
                if (contains(push)) {
                    found = true;
                    if (flag == UpdateFlag.UPDATE_ALL
                            || (flag == UpdateFlag.UPDATE_P2PUBKEY_ONLY
                                    && CoreScripts.isPayToPubkeyOrMultisig(script))) {
                        insert(outpointBytes(txid, i));
                    }
                    break;
                }
            }
        }
        if (found) {
            return true;
        }
        for (TransactionInput in : tx.getInputs()) {
            if (contains(in.getOutpoint().serialize())) {
                return true;
            }
            for (byte[] push : CoreScripts.dataPushes(in.getScriptBytes())) {
                if (contains(push)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Core's {@code CMerkleBlock(block, filter)}: every transaction in order through {@link #isRelevantAndUpdate}. */
    public MerkleBlockMatch filterBlock(Block block) {
        List<Transaction> txs = block.getTransactions();
        if (txs == null || txs.isEmpty()) {
            throw new IllegalArgumentException("block " + block.getHash() + " has no transactions");
        }
        List<Sha256Hash> hashes = new ArrayList<>(txs.size());
        byte[] matchBits = new byte[(txs.size() + 7) / 8];
        List<Integer> indices = new ArrayList<>();
        List<Sha256Hash> txids = new ArrayList<>();
        for (int i = 0; i < txs.size(); i++) {
            Transaction tx = txs.get(i);
            hashes.add(tx.getTxId());
            if (isRelevantAndUpdate(tx)) {
                matchBits[i / 8] |= (byte) (1 << (i % 8));
                indices.add(i);
                txids.add(tx.getTxId());
            }
        }
        PartialMerkleTree tree = PartialMerkleTree.buildFromLeaves(matchBits, hashes);
        return new MerkleBlockMatch(new FilteredBlock(block.cloneAsHeader(), tree), indices, txids);
    }

    private static byte[] outpointBytes(Sha256Hash txid, int index) {
        byte[] out = new byte[36];
        System.arraycopy(txid.serialize(), 0, out, 0, 32);
        out[32] = (byte) index;
        out[33] = (byte) (index >>> 8);
        out[34] = (byte) (index >>> 16);
        out[35] = (byte) (index >>> 24);
        return out;
    }

    private static UpdateFlag requireFlag(UpdateFlag flag) {
        if (flag == null) {
            throw new NullPointerException("flag");
        }
        return flag;
    }

    private static byte[] encode(byte[] data, long hashFuncs, int tweak, UpdateFlag flag) {
        return new WireWriter(CompactSize.size(data.length) + data.length + FIELDS_AFTER_DATA)
                .varBytes(data)
                .u32le(hashFuncs)
                .u32le(tweak)
                .u8(flag.wireValue())
                .toByteArray();
    }
}
