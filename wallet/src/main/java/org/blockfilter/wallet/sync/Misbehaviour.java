package org.blockfilter.wallet.sync;

/**
 * What the sync found wrong with one source's answers, to be turned into a {@link SourceFault}
 * by {@code SourcePool}: a lie (the answer contradicts verified data, the block, or the source's
 * own answers), a valid chain with less work, or a chain of another network. Unchecked: thrown
 * from inside a request to the source and caught where the source was asked.
 */
final class Misbehaviour extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final SourceFault.Kind kind;
    private final int height;

    private Misbehaviour(SourceFault.Kind kind, int height, String message) {
        super(message);
        this.kind = kind;
        this.height = height;
    }

    static Misbehaviour lie(int height, String message) {
        return new Misbehaviour(SourceFault.Kind.LIED, height, message);
    }

    static Misbehaviour weakerChain(int height, String message) {
        return new Misbehaviour(SourceFault.Kind.WEAKER_CHAIN, height, message);
    }

    static Misbehaviour otherNetwork(int height, String message) {
        return new Misbehaviour(SourceFault.Kind.OTHER_NETWORK, height, message);
    }

    SourceFault.Kind kind() {
        return kind;
    }

    int height() {
        return height;
    }
}
