package org.blockfilter.privacylab.internal;

import java.util.Arrays;

/**
 * The change links the one-time-change heuristic draws in a chain's transactions, by block, with the chain's ground
 * truth for each (see {@link ChangeAdversary} for the rule). Link i of block b
 * ({@code blockStart[b] <= i < blockStart[b+1]}) ties the transaction's first input script {@code input[i]} to the
 * output script {@code change[i]} the heuristic takes for its change; {@code correct[i]} says whether that output
 * really is the transaction's change (the chain built it so). Immutable; arrays are package-private and never changed
 * after construction.
 */
final class ChangeLinks {
    final int[] blockStart;
    final int[] input;
    final int[] change;
    final boolean[] correct;
    final Truth truth;

    /**
     * Counts over the whole chain.
     *
     * @param txs              transactions the heuristic was applied to (coinbases excluded)
     * @param links            transactions in which it named a change output
     * @param correct          links whose named output is the transaction's change
     * @param walletLinks      links in the lab wallets' own transactions
     * @param walletFreshChange the wallets' transactions with change to a script never seen before (what the heuristic
     *                         is meant to find)
     */
    record Truth(long txs, long links, long correct, long walletLinks, long walletFreshChange) {
        /** Share of links that are right; NaN without links. */
        double precision() {
            return links == 0 ? Double.NaN : (double) correct / links;
        }

        /** Share of links in wallet transactions that are right; NaN without such links. */
        double walletPrecision() {
            return walletLinks == 0 ? Double.NaN : (double) correct / walletLinks;
        }

        /** Share of the wallets' fresh-change transactions whose change it found; NaN without any. */
        double walletRecall() {
            return walletFreshChange == 0 ? Double.NaN : (double) correct / walletFreshChange;
        }

        Truth plus(Truth o) {
            return new Truth(
                    txs + o.txs,
                    links + o.links,
                    correct + o.correct,
                    walletLinks + o.walletLinks,
                    walletFreshChange + o.walletFreshChange);
        }
    }

    ChangeLinks(int[] blockStart, int[] input, int[] change, boolean[] correct, Truth truth) {
        if (input.length != change.length
                || input.length != correct.length
                || blockStart[blockStart.length - 1] != input.length) {
            throw new IllegalArgumentException("link arrays disagree: " + blockStart[blockStart.length - 1] + " links, "
                    + input.length + " inputs, " + change.length + " changes, " + correct.length + " truths");
        }
        this.blockStart = blockStart;
        this.input = input;
        this.change = change;
        this.correct = correct;
        this.truth = truth;
    }

    /**
     * Hand-written links (tests): {@code links[b]} lists block b's links as {input, change} pairs; every link counts
     * as correct.
     */
    static ChangeLinks of(int[][][] links) {
        int[] start = new int[links.length + 1];
        for (int b = 0; b < links.length; b++) {
            start[b + 1] = start[b] + links[b].length;
        }
        int[] in = new int[start[links.length]];
        int[] ch = new int[in.length];
        int i = 0;
        for (int[][] block : links) {
            for (int[] l : block) {
                in[i] = l[0];
                ch[i++] = l[1];
            }
        }
        boolean[] ok = new boolean[in.length];
        Arrays.fill(ok, true);
        return new ChangeLinks(start, in, ch, ok, new Truth(in.length, in.length, in.length, 0, 0));
    }

    /** No links: a chain without transactions (hand-written blocks). */
    static ChangeLinks none(int blocks) {
        return new ChangeLinks(new int[blocks + 1], new int[0], new int[0], new boolean[0], new Truth(0, 0, 0, 0, 0));
    }

    int blocks() {
        return blockStart.length - 1;
    }
}
