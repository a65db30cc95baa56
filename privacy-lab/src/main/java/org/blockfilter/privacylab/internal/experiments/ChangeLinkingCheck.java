package org.blockfilter.privacylab.internal.experiments;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.blockfilter.privacylab.internal.adversaries.ChangeAdversary;
import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.ChangeLinks;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;

/**
 * The one-time-change heuristic against ground truth, on experiment 8's chain and on the same chain with no-reuse
 * wallets ({@link ProfileShapedChain.WalletModel#NO_REUSE}: fresh change, what the heuristic is meant to find). Per
 * chain and wallet model: the heuristic's counts ({@link ChangeLinks.Truth}) and the mean P_h(1) of the transaction
 * graph and of change linking ({@link ChangeAdversary}) for an observer of every download with no fetch policy (the
 * downloads are the blocks the wallet's scripts are in; the filters' false positives are not modelled here, no real
 * sync runs). Stateless.
 */
final class ChangeLinkingCheck {
    private ChangeLinkingCheck() {}

    static final String[] HEADER = {
        "chain",
        "wallet_model",
        "txs",
        "links",
        "correct",
        "wallet_links",
        "wallet_fresh_change",
        "wallets",
        "graph_ph1",
        "change_ph1"
    };

    /** One row of {@link #HEADER} for a built chain. */
    static Object[] row(int chainIndex, ProfileShapedChain.WalletModel model, ProfileShapedChain.Built built) {
        MainnetLikeChain chain = built.chain();
        DownloadAdversary graph = new DownloadAdversary(chain.occ);
        ChangeAdversary change = new ChangeAdversary(chain.occ, built.changes());
        double g = 0;
        double c = 0;
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            int[] own = chain.ownBlocks(w);
            int lo = w.firstScript();
            int hi = lo + w.n();
            g += graph.rank(own, w.birth(), lo, hi, 1.0, true).graph().ph(1);
            c += change.rank(own, w.birth(), lo, hi, 1.0, Integer.MAX_VALUE, Integer.MAX_VALUE, null)
                    .ph(1);
        }
        int n = chain.wallets().size();
        ChangeLinks.Truth t = built.changes().truth;
        return new Object[] {
            chainIndex,
            model.name().toLowerCase(Locale.ROOT).replace('_', '-'),
            t.txs(),
            t.links(),
            t.correct(),
            t.walletLinks(),
            t.walletFreshChange(),
            n,
            Stats.sig(g / Math.max(1, n), 4),
            Stats.sig(c / Math.max(1, n), 4)
        };
    }

    /** Experiment 5's assumptions with every wallet group of {@code shape} on the no-reuse model. */
    static ProfileShapedChain.Assumptions noReuseAssumptions(ProfileShapedChain.Shape shape) {
        return new ProfileShapedChain.Assumptions(
                ProfileShapedChain.Assumptions.EXP5.youngShare(),
                Collections.nCopies(shape.walletSizes().length, ProfileShapedChain.WalletModel.NO_REUSE),
                List.of());
    }

    /** The report's sentence per wallet model, summed over the chains of a {@link #HEADER} table. */
    static String text(Csv table) {
        List<String> models = new ArrayList<>();
        for (List<String> r : table.rows()) {
            if (!models.contains(r.get(1))) {
                models.add(r.get(1));
            }
        }
        Template.Sections text = FetchPolicyReport.TEXT;
        StringBuilder sb =
                new StringBuilder(text.get("changeLinking").render(Map.of("file", FetchPolicyExperiment.CHANGE_FILE)));
        for (String m : models) {
            ChangeLinks.Truth t = new ChangeLinks.Truth(0, 0, 0, 0, 0);
            double g = 0;
            double c = 0;
            long wallets = 0;
            for (List<String> r : table.rows()) {
                if (!r.get(1).equals(m)) {
                    continue;
                }
                t = t.plus(new ChangeLinks.Truth(
                        Long.parseLong(r.get(2)),
                        Long.parseLong(r.get(3)),
                        Long.parseLong(r.get(4)),
                        Long.parseLong(r.get(5)),
                        Long.parseLong(r.get(6))));
                int n = Integer.parseInt(r.get(7));
                wallets += n;
                g += Double.parseDouble(r.get(8)) * n;
                c += Double.parseDouble(r.get(9)) * n;
            }
            Map<String, Object> v = new HashMap<>();
            v.put(
                    "wallets",
                    text.get(m.equals("reuse") ? "changeLinking.reuse" : "changeLinking.noReuse")
                            .render());
            v.put("txs", Lab.count(t.txs()));
            v.put("links", Lab.count(t.links()));
            v.put("correct", Lab.count(t.correct()));
            v.put("precision", share(t.precision()));
            v.put("walletLinks", Lab.count(t.walletLinks()));
            v.put("walletPrecision", share(t.walletPrecision()));
            v.put("walletFreshChange", Lab.count(t.walletFreshChange()));
            v.put("walletRecall", share(t.walletRecall()));
            v.put("walletCount", wallets);
            v.put("graph", share(g / Math.max(1, wallets)));
            v.put("changeLinking", share(c / Math.max(1, wallets)));
            sb.append(' ').append(text.get("changeLinking.model").render(v));
        }
        return sb.toString();
    }

    private static String share(double x) {
        return Double.isNaN(x) ? "n/a" : String.valueOf(Stats.sig(x, 3));
    }
}
