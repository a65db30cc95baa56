package org.blockfilter.filters.bloom;

import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.FilteredBlock;

/**
 * A block filtered through a BIP 37 filter: the {@code merkleblock} message and the matched
 * transactions in block order. Immutable apart from bitcoinj's {@link FilteredBlock}, which the caller must not mutate.
 *
 * @param merkleBlock    header plus partial merkle tree, as bitcoinj builds it
 * @param matchedIndices positions in the block of the matched transactions, ascending
 * @param matchedTxids   their txids, same order
 */
public record MerkleBlockMatch(FilteredBlock merkleBlock, List<Integer> matchedIndices, List<Sha256Hash> matchedTxids) {
    public MerkleBlockMatch {
        matchedIndices = List.copyOf(matchedIndices);
        matchedTxids = List.copyOf(matchedTxids);
    }

    /** The serialized {@code merkleblock} payload: header, tx count, hashes, flag bits. */
    public byte[] serialize() {
        return merkleBlock.serialize();
    }
}
