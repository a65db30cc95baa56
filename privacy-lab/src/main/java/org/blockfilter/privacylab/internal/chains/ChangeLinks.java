package org.blockfilter.privacylab.internal.chains;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The change links the one-time-change heuristic draws in a chain's transactions, by block, with the chain's ground
 * truth for each (the rule is {@link #oneTimeChange}). Link i of block b
 * ({@code blockStart[b] <= i < blockStart[b+1]}) ties the transaction's first input script {@code input[i]} to the
 * output script {@code change[i]} the heuristic takes for its change; {@code correct[i]} says whether that output
 * really is the transaction's change (the chain built it so). Immutable; arrays are package-private and never changed
 * after construction.
 */
public final class ChangeLinks {
    public final int[] blockStart;
    public final int[] input;
    public final int[] change;
    final boolean[] correct;
    public final Truth truth;

    /**
     * The script the one-time-change heuristic names as the change of a (non-coinbase) transaction, or -1. An output
     * of a transaction is its change when
     *
     * <ol>
     *   <li>the transaction is not a coinbase and has at least two outputs (a one-output transaction has no
     *   change);</li>
     *   <li>no output pays back to one of its input scripts (Meiklejohn's "no self-change address": a wallet that
     *   sends change back has made its change visible another way, and then the fresh output is the payment);</li>
     *   <li>exactly one of its output scripts appears for the first time in the chain (never before in an output or
     *   an input, earlier transactions of the same block included), and every other output's script was seen
     *   before.</li>
     * </ol>
     *
     * @param ins  the input scripts, {@code ins[0..nIn)}
     * @param outs the output scripts, {@code outs[0..nOut)}
     * @param seen the scripts that appeared in the chain before this transaction's outputs (its inputs included)
     */
    public static int oneTimeChange(int[] ins, int nIn, int[] outs, int nOut, BitSet seen) {
        if (nOut < 2 || nIn < 1) {
            return -1;
        }
        int candidate = -1;
        for (int o = 0; o < nOut; o++) {
            for (int i = 0; i < nIn; i++) {
                if (outs[o] == ins[i]) {
                    return -1; // self-change
                }
            }
            if (!seen.get(outs[o])) {
                if (candidate >= 0 && candidate != outs[o]) {
                    return -1; // two new scripts: cannot tell which is change
                }
                candidate = outs[o];
            }
        }
        return candidate;
    }
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
    public record Truth(long txs, long links, long correct, long walletLinks, long walletFreshChange) {
        /** Share of links that are right; NaN without links. */
        public double precision() {
            return links == 0 ? Double.NaN : (double) correct / links;
        }

        /** Share of links in wallet transactions that are right; NaN without such links. */
        public double walletPrecision() {
            return walletLinks == 0 ? Double.NaN : (double) correct / walletLinks;
        }

        /** Share of the wallets' fresh-change transactions whose change it found; NaN without any. */
        public double walletRecall() {
            return walletFreshChange == 0 ? Double.NaN : (double) correct / walletFreshChange;
        }

        public Truth plus(Truth o) {
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
    public static ChangeLinks of(int[][][] links) {
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
    public static ChangeLinks none(int blocks) {
        return new ChangeLinks(new int[blocks + 1], new int[0], new int[0], new boolean[0], new Truth(0, 0, 0, 0, 0));
    }

    public int blocks() {
        return blockStart.length - 1;
    }
}
