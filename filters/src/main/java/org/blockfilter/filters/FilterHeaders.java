package org.blockfilter.filters;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;

/**
 * The BIP 157 filter header chain: {@code header = double-SHA256(filterHash || prevHeader)} over the
 * internal byte order of both, starting from 32 zero bytes before the genesis block, and the checkpoints
 * every {@value Bip157#CHECKPOINT_INTERVAL} blocks a client uses to verify headers from several peers.
 *
 * <p>Stateless. All hashes are bitcoinj {@link Sha256Hash} in display order ({@code toString()} is the RPC
 * hex). Null arguments and null list entries are rejected with {@link NullPointerException}.
 *
 * @see <a href="https://github.com/bitcoin/bips/blob/master/bip-0157.mediawiki">BIP 157</a>
 */
public final class FilterHeaders {

    /** The "previous filter header" of the genesis block: 32 zero bytes. */
    public static final Sha256Hash GENESIS_PREV = Sha256Hash.ZERO_HASH;

    private FilterHeaders() {}

    /** The filter header of a block whose filter hashes to {@code filterHash}. */
    public static Sha256Hash next(Sha256Hash filterHash, Sha256Hash prevHeader) {
        Objects.requireNonNull(filterHash, "filterHash");
        Objects.requireNonNull(prevHeader, "prevHeader");
        // serialize() is the internal (wire) byte order, which is what BIP 157 hashes.
        return Sha256Hash.wrapReversed(Sha256Hash.hashTwice(filterHash.serialize(), prevHeader.serialize()));
    }

    /**
     * The checkpoints of a header chain: the headers at heights 1000, 2000, ... that the list holds.
     *
     * @param headersFromGenesis filter headers, index = height (index 0 is the genesis block's header)
     */
    public static List<Sha256Hash> checkpoints(List<Sha256Hash> headersFromGenesis) {
        Objects.requireNonNull(headersFromGenesis, "headersFromGenesis");
        List<Sha256Hash> out = new ArrayList<>(headersFromGenesis.size() / Bip157.CHECKPOINT_INTERVAL);
        for (int h = Bip157.CHECKPOINT_INTERVAL; h < headersFromGenesis.size(); h += Bip157.CHECKPOINT_INTERVAL) {
            out.add(Objects.requireNonNull(headersFromGenesis.get(h), "header"));
        }
        return List.copyOf(out);
    }

    /**
     * Recomputes the chain from {@code prevHeader} over {@code filterHashes} (as a {@code cfheaders}
     * message carries them) and returns the index of the first header in {@code headers} that differs,
     * or empty if all agree.
     *
     * @throws IllegalArgumentException if the two lists differ in length
     */
    public static OptionalInt firstMismatch(
            Sha256Hash prevHeader, List<Sha256Hash> filterHashes, List<Sha256Hash> headers) {
        Objects.requireNonNull(prevHeader, "prevHeader");
        Objects.requireNonNull(filterHashes, "filterHashes");
        Objects.requireNonNull(headers, "headers");
        if (filterHashes.size() != headers.size()) {
            throw new IllegalArgumentException(
                    "filterHashes has " + filterHashes.size() + " entries but headers has " + headers.size());
        }
        Sha256Hash header = prevHeader;
        for (int i = 0; i < filterHashes.size(); i++) {
            header = next(filterHashes.get(i), header);
            if (!header.equals(Objects.requireNonNull(headers.get(i), "header"))) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }
}
