package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.blockfilter.filters.Bip158;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.regtest.mainnet.MainnetStatistics;

/** The report of experiment 5 (Markdown + HTML), written from its tables. Stateless. */
final class Bip158Report {
    private Bip158Report() {}

    static void write(
            Lab lab,
            Path dir,
            MainnetLikeChain chain,
            ProfileShapedChain.Shape shape,
            ProfileShapedChain.Stats stats,
            double buildSeconds,
            Csv fpRate,
            Csv summary,
            Csv bip37,
            List<String> plots,
            Csv sensitivity) {
        MainnetLikeChain.Params p = chain.params;
        Occurrences o = chain.occ;
        Report rep = new Report(dir, "Experiment 5: BIP 158 instead of BIP 37");
        rep.paragraph(lab.regenerate("exp5"));
        rep.heading("Setup (every assumption)");
        long filterBytes = chain.filterBytes(0);
        long elements = o.blockStart[o.blocks];
        int[] perBlock = new int[o.blocks];
        for (int b = 0; b < o.blocks; b++) {
            perBlock[b] = o.elements(b);
        }
        Arrays.sort(perBlock);
        long clustered = 0;
        for (int c = 0; c < o.clusters; c++) {
            if (o.clusterStart[c + 1] - o.clusterStart[c] > 1) {
                clustered += o.clusterStart[c + 1] - o.clusterStart[c];
            }
        }
        List<String> wallets = new ArrayList<>();
        for (int i = 0; i < p.walletSizes().length; i++) {
            wallets.add(p.walletsPerSize()[i] + " wallets of N = " + p.walletSizes()[i]);
        }
        double perBlockTx = (double) stats.txs() / o.blocks;
        double nonCoinbase = stats.txs() - o.blocks;
        rep.bullets(
                List.of(
                        "Chain: " + p.blocks() + " synthetic blocks (seed " + lab.seed()
                                + (lab.quick() ? ", QUICK mode: small" : "")
                                + "), built in " + String.format(Locale.ROOT, "%.0f", buildSeconds)
                                + " s, by `ProfileShapedChain`, which draws every block transaction by transaction from the SAME samplers as the server's mainnet-profile workload (`org.blockfilter.regtest.mainnet.MainnetStatistics`, module `regtest/mainnet-profile`). The distributions, their figures and their sources or 'estimate' labels are in [docs/mainnet-profile.md](../../../docs/mainnet-profile.md) ('Statistics, sources and estimates'); they are not repeated here. Only scripts are modelled (which script is in which block, which inputs are spent together), not serialized transactions.",
                        "Shared with the mainnet profile (docs/mainnet-profile.md): transactions per block (normal, mean "
                                + Lab.count(shape.txPerBlock())
                                + ", sd 12%); inputs per transaction (1: 70%, 2: 15%, 3: 5%, 4-9: 8%, 10-30: 2%; estimate); outputs per transaction (1: 20%, 2: 66%, 3: 7%, 4-10: 5%, 11-50: 2%; estimate); address reuse (a transaction with 2+ outputs sends its change back to its first input's script with probability "
                                + shape.changeToSelfShare() + ", another output pays one of "
                                + Lab.count(MainnetStatistics.REUSERS)
                                + " reusers drawn log-uniformly by rank with probability " + shape.reuseShare()
                                + ", else a fresh script; BitMEX Research's ~50% reuse, sized in the profile to mainnet's filter element count); spend age ("
                                + Math.round(100 * MainnetStatistics.YOUNG_SHARE)
                                + "% of spends from the outputs of the last "
                                + MainnetStatistics.YOUNG_BLOCKS
                                + " blocks, the rest log-uniform in age counted in outputs over every output ever created, the next unspent one taken; estimate). The script mix and OP_RETURN outputs do not enter this model: BIP 158 hashes every script to the same kind of element and leaves OP_RETURN out.",
                        "Generated here: " + String.format(Locale.ROOT, "%.0f", perBlockTx)
                                + " transactions per block (coinbase included), "
                                + String.format(Locale.ROOT, "%.2f", stats.inputs() / nonCoinbase)
                                + " inputs and "
                                + String.format(Locale.ROOT, "%.2f", (stats.outputs() - o.blocks) / nonCoinbase)
                                + " outputs per transaction; mean " + elements / o.blocks
                                + " distinct basic-filter elements per block (median " + perBlock[o.blocks / 2]
                                + ", 5th-95th percentile " + perBlock[o.blocks / 20] + "-"
                                + perBlock[o.blocks - 1 - o.blocks / 20]
                                + "); the mainnet profile's steady blocks have ~7,540 and its sizing target for mainnet is ~7,400 (docs/mainnet-profile.md). The repository holds no mainnet data, so neither is re-measured against the real chain here.",
                        "Assumption (this model, not the profile): the chain continues a history of "
                                + Lab.count(shape.priorOutputs())
                                + " unspent outputs (the profile's `utxoTarget`, the UTXO set its ramp builds). A spend that reaches before block 0 spends one of them; its script is a reuser's with the reuse share, else a script seen nowhere else in the chain. "
                                + Lab.count(stats.priorSpends()) + " of " + Lab.count(stats.inputs())
                                + " inputs spend such outputs.",
                        "Assumption (transaction graph): the inputs of one transaction form a common-input cluster. The profile draws a background transaction's inputs at random, without owners, and closing that relation transitively would chain most scripts into one cluster through reused scripts (an artifact, not mainnet), so a background transaction clusters only the inputs whose script it spends for the first time; a wallet's transaction clusters all its inputs (one owner). "
                                + Lab.count(clustered) + " of " + Lab.count(o.scripts)
                                + " scripts are in multi-script clusters. No change detection, no clustering beyond shared inputs.",
                        "Wallets (assumption): " + String.join(", ", wallets)
                                + "; born at a height uniform in the first half of the chain; each address paid 1 + Geometric(1/2) times (mean 2) in blocks uniform over [birth, tip). A wallet's outputs are spent by the shared spend-age law like every output: when the spend process picks one, the wallet spends it in a transaction of its own, whose input count is drawn from the shared law and filled with the wallet's other unspent outputs (oldest first, as many as it has), and whose outputs follow the shared law, change sent back to the first input's script with the shared probability (a new wallet output, spent later by the same law). "
                                + Lab.count(stats.walletTxs()) + " wallet transactions, "
                                + chain.walletMultiInputSpends + " with several inputs, "
                                + Lab.count(stats.walletChangeToSelf())
                                + " with change sent back. A wallet syncs [birth, tip): every filter, and every block whose filter matches one of its N scripts (wallets match with the filters' own hash and values; a test checks this equals `matchAny`).",
                        "Filters: each block's REAL basic filter, `GolombCodedSet.build(P=19, M=784931, key, elements)` with a per-block 16-byte key. Total filter bytes "
                                + Lab.count(filterBytes) + " ("
                                + String.format(Locale.ROOT, "%.2f", 8.0 * filterBytes / elements)
                                + " bits per element). Block bytes (bandwidth columns; assumption): "
                                + p.bytesPerElement()
                                + " per filter element (the mainnet profile's steady blocks are ~1.24 MB for ~7,540 elements, ~165 bytes per element, without any signature data beyond the templates'; 250 is kept from the earlier version of this experiment so that the MB columns stay comparable).",
                        "Observers: peers = 1, one peer serves every filter and block; peers = 4, each block download goes to one of 4 peers at random and the observer is one of them. The observer knows the whole chain and the synced range (the first filter asked for).",
                        "Decoy settings: no decoys; `random d/match`: d extra blocks per matched block, uniform over the range, drawn afresh every sync and requested together with the matched block; `seeded d/match`: each block of the range is a decoy when a hash of (wallet seed, height) is below a rate giving d per matched block on average, the same in every sync and requested when the filter scan passes it."));

        rep.heading("Adversaries");
        rep.bullets(
                List.of(
                        "**uniform**: picks uniformly among the candidates, scripts with a block in O; a full observer keeps only consistent ones (every block in range observed). The lab's earlier adversary, kept for comparison.",
                        "**co-occurrence**: ranks candidates by the log-likelihood ratio of their pattern, o of their t in-range blocks observed, between 'the wallet's' (each block observed with probability 1/peers) and 'another' (|O| / range): o ln(pW/pO) + (t - o) ln((1 - pW)/(1 - pO)). For a full observer an unobserved block rules a script out and the rest rank by the number of downloaded blocks containing them.",
                        "**+ timing**: the observer also serves the filters and sees how far the scan has gone when a block is requested; a block requested out of scan order (a random decoy requested with its matched block) is dropped before ranking.",
                        "**+ 2 re-syncs**: the wallet syncs the same range twice (a restart or rescan). Matched blocks repeat (the filters are fixed); random decoys and the peer assignment are redrawn. **(intersection)** keeps the blocks the observer saw in both syncs and ranks with pW = 1/peers^2: it removes random decoys, which helps an observer that serves every download (peers = 1), but an observer that serves 1 of 4 peers keeps only about 1/16 of the wallet's blocks and is WEAKER than with one sync. **(union)** ranks the blocks it saw in either sync with pW = 1 - (1 - 1/peers)^2 (7/16 at 4 peers, 1 at 1): the 1-of-4 observer sees more of the wallet's blocks; at peers = 1 the union only adds the second sync's random decoys.",
                        "**tx graph**: the co-occurrence score computed for common-input clusters (union of the members' blocks); every member takes its cluster's rank. With + timing + 2 re-syncs it works on the timing-filtered views of both syncs, intersected or united as above.",
                        "P_h(j): the probability that the adversary's top j are all the wallet's scripts, ties broken uniformly at random (exact, not sampled); reported P_h(1) and P_h(N), mean over wallets with a 95% percentile bootstrap interval (2,000 resamples). A test runs every adversary on a five-block chain where each answer is worked out by hand."));

        rep.heading("False-positive rate of the real filters");
        rep.table(fpRate);
        StringBuilder fp = new StringBuilder("BIP 158's rate is 1/M = 1/784,931 per (query element, filter). ");
        for (List<String> r : fpRate.rows()) {
            double expected = Double.parseDouble(r.get(1)) / Bip158.BASIC_M;
            double z = (Double.parseDouble(r.get(2)) - expected) / Math.sqrt(expected);
            fp.append(String.format(
                    Locale.ROOT,
                    "%s: %s matches where %.1f are expected (%.1f standard deviations, Poisson). ",
                    r.get(0),
                    r.get(2),
                    expected,
                    z));
        }
        rep.paragraph(fp.toString());

        rep.heading("Results: P_h(1) by adversary");
        rep.table(headline(summary, 1));
        rep.paragraph(reading(summary));
        for (String f : plots) {
            rep.image(f, f);
        }
        rep.heading("All cells (P_h(1) and P_h(N) with 95% intervals)");
        rep.table(summary);
        rep.heading("BIP 37 on the same axes");
        rep.table(bip37);
        rep.paragraph(
                "The pre-HD bitcoinj filter (N keys, 2N elements, capacity 2N + 100; sized by bitcoinj's own `BloomFilter` constructor, the same sizing and hash-function count as experiment 1's rows) against this chain's scripts in the synced range. BIP 37's filter goes to the peer itself: P_h(1) is set by the rate alone, with no inference over blocks. Under the co-occurrence adversary BIP 158 downloads are no longer far more private than a small BIP 37 filter: both give a small wallet away.");

        rep.heading("Start height");
        double bits = Math.log(MAINNET_HEIGHT_D) / Math.log(2);
        rep.paragraph(String.format(
                Locale.ROOT,
                "A wallet that starts its sync at its birth height tells the peer it asks for filters when the wallet was made: on a chain of %,d blocks about %.1f bits (%.1f bits when rounded down to a multiple of 1,000). Not measured here; the adversaries above use the start only to bound the range.",
                Bip158Experiment.MAINNET_HEIGHT,
                bits,
                Math.log(MAINNET_HEIGHT_D / 1000) / Math.log(2)));

        rep.heading("What the design answers");
        rep.bullets(
                List.of(
                        "Adversaries as strong as a download log allows: co-occurrence, timing, re-sync intersection and union, and transaction-graph adversaries, each with P_h(1) and P_h(N) and 95% intervals; see the table and the plots above.",
                        "A chain shaped like mainnet: spends, a skewed reuse distribution and mainnet-like element counts, drawn from the server's mainnet-profile samplers (one definition of each distribution for both), every assumption listed above. Two syncs over fixed filters match the same blocks by construction (BIP 158 filters are a function of the block), which is a property and not a measurement; what re-syncs leak is measured by the intersection and union adversaries.",
                        "BIP 37 rows sized as bitcoinj sizes them, under the bitcoinj label (k = 16 at 1e-5, as in experiment 1).",
                        "Statistics and plots: " + (lab.quick() ? "QUICK mode has few wallets; " : "")
                                + "100 or more wallets per cell for N = 1 and 10, fewer for N = 100 where each costs most (see `wallets`), 95% bootstrap intervals, three significant digits, a linear P_h axis (zeros are zeros), the legend below the plot, decoy levels named on the axis with their bandwidth."));

        Bip158Sensitivity.section(rep, sensitivity, summary, shape);
        rep.heading("Limits");
        rep.bullets(
                List.of(
                        "The chain is synthetic and short (" + p.blocks()
                                + String.format(Locale.ROOT, " blocks, %.1f weeks)", p.blocks() / (7 * 144.0))
                                + ": the sensitivity section above measures the headline over ranges of months on a longer chain.",
                        "The chain's statistics are the mainnet profile's, most of them estimates (docs/mainnet-profile.md): the lab's figures inherit their uncertainty. Wallet behaviour is modelled (payments, spends, common inputs, change back); a wallet that never reuses addresses is measured beside it in the sensitivity section, and so is the share of young spends.",
                        "Decoys here are random blocks; decoys chosen to defeat co-occurrence (blocks that contain the same candidates) are not measured. IP linking and broadcast timing are not modelled."));
        rep.paragraph(
                "Raw per-wallet numbers: `exp5_raw.csv` (columns a0..a" + (Bip158Experiment.ADVERSARIES.size() - 1)
                        + " are the adversaries in the order above); tables: `exp5_summary.csv`, `exp5_fp_rate.csv`, `exp5_bip37.csv`, `exp5_sensitivity.csv`.");
        rep.write();
    }

    private static final double MAINNET_HEIGHT_D = Bip158Experiment.MAINNET_HEIGHT;

    /** One row per (N, setting) at the given observer, P_h(1) [95% CI] per adversary. */
    static Csv headline(Csv summary, int peers) {
        List<String> header = new ArrayList<>(List.of("N", "decoys", "wallets", "mean_MB"));
        header.addAll(Bip158Experiment.ADVERSARIES);
        Csv t = new Csv(header.toArray(String[]::new));
        List<String> row = null;
        String key = null;
        for (List<String> r : summary.rows()) {
            if (Integer.parseInt(r.get(1)) != peers) {
                continue;
            }
            String k = r.get(0) + "," + r.get(2) + "," + r.get(3);
            if (!k.equals(key)) {
                if (row != null) {
                    t.row(row.toArray());
                }
                key = k;
                row = new ArrayList<>(List.of(
                        r.get(0),
                        Bip158Experiment.SETTINGS
                                .get(Bip158Experiment.settingIndex(r.get(2), Integer.parseInt(r.get(3))))
                                .label(),
                        r.get(5),
                        r.get(9)));
            }
            row.add(r.get(11) + " [" + r.get(12) + ", " + r.get(13) + "]");
        }
        if (row != null) {
            t.row(row.toArray());
        }
        return t;
    }

    private static String reading(Csv summary) {
        StringBuilder sb = new StringBuilder("One observer that serves everything, no decoys: ");
        for (List<String> r : summary.rows()) {
            if (r.get(1).equals("1") && r.get(2).equals("NONE")) {
                if (r.get(4).equals("uniform") || r.get(4).equals("co-occurrence")) {
                    sb.append(String.format(
                            Locale.ROOT,
                            "N = %s, %s: P_h(1) = %s [%s, %s], P_h(N) = %s. ",
                            r.get(0),
                            r.get(4),
                            r.get(11),
                            r.get(12),
                            r.get(13),
                            r.get(14)));
                }
            }
        }
        sb.append(
                "The uniform adversary drowns the wallet among every script of every downloaded block; ranking by co-occurrence does not: a wallet script is paid and spent in downloaded blocks, while almost every other script of a downloaded block appears in one downloaded block only, or in blocks the wallet did not download. Random decoys requested with the matched block are removed by timing and by intersecting two syncs; seeded decoys survive both, but each decoy block adds scripts seen in one downloaded block, which the ranking puts below the wallet's. Spreading downloads over peers lowers what each observer learns.");
        sb.append(resyncAtFourPeers(summary));
        return sb.toString();
    }

    /** The sentence that says what two syncs give a 1-of-4 observer (intersection vs union), with this run's numbers. */
    static String resyncAtFourPeers(Csv summary) {
        StringBuilder sb = new StringBuilder(
                " Two syncs of the same range, observer that serves 1 of 4 peers, no decoys: intersecting them keeps only the blocks it served in both (a weaker adversary), the union keeps those it served in either (a stronger one). Co-occurrence after one sync, after two (intersection), after two (union): ");
        java.util.Map<String, String[]> byN = new java.util.LinkedHashMap<>();
        for (List<String> r : summary.rows()) {
            if (!r.get(1).equals("4") || !r.get(2).equals("NONE")) {
                continue;
            }
            int i = switch (r.get(4)) {
                case "co-occurrence" -> 0;
                case "co-occurrence + 2 re-syncs (intersection)" -> 1;
                case "co-occurrence + 2 re-syncs (union)" -> 2;
                default -> -1;
            };
            if (i >= 0) {
                byN.computeIfAbsent(r.get(0), k -> new String[3])[i] =
                        r.get(11) + " [" + r.get(12) + ", " + r.get(13) + "]";
            }
        }
        for (java.util.Map.Entry<String, String[]> e : byN.entrySet()) {
            String[] v = e.getValue();
            sb.append(String.format(Locale.ROOT, "N = %s: P_h(1) %s, %s, %s. ", e.getKey(), v[0], v[1], v[2]));
        }
        sb.append(
                "The union is what two syncs leak to such an observer; the intersection columns are kept because they are what helps an observer that serves every download (it removes random decoys).");
        return sb.toString();
    }
}
