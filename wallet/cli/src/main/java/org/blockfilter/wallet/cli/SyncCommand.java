package org.blockfilter.wallet.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SourceFault;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "sync",
        mixinStandardHelpOptions = true,
        description = "Sync with the servers/peers: headers, filter headers, filters, matching blocks.")
class SyncCommand extends NetworkOptions implements Callable<Integer> {
    @Option(names = "--quiet", description = "no progress bar")
    boolean quiet;

    @Option(
            names = "--fetch-policy",
            paramLabel = "SPEC",
            converter = FetchPolicyConverter.class,
            description = "how matched blocks are downloaded: none, default, or a comma list of spread (each"
                    + " block from one of the sources, by a stable per-wallet hash), decoys=K (0.."
                    + FetchPolicy.MAX_DECOYS + "; per matched block, K seed blocks whose decoy scripts are then"
                    + " followed like the wallet's own; decoy blocks are verified and discarded), clusters=K"
                    + " (0.." + FetchPolicy.MAX_CLUSTERS + "; per matched block, K seed blocks from each of"
                    + " which the input scripts of one multi-input transaction, a common-input cluster, are"
                    + " adopted as decoys, their earlier blocks in the look-back window downloaded too), shuffle"
                    + " (random request order) and jitter=MS (random pause before each block request)."
                    + " Default: ${DEFAULT-VALUE}, measured by the privacy lab's experiment 8; what it does and does"
                    + " not protect against, per adversary: privacy-lab/results/exp8-fetch-policy/report.md, section"
                    + " 'What the default leaks, per adversary' (every sync, block by block too). Decoys hide the"
                    + " wallet's blocks among others only from an adversary that does not know the decoy rules: one"
                    + " that does names a wallet script seen in more downloaded blocks than a decoy may be in ("
                    + FetchPolicy.DECOY_MAX_BLOCKS + "). spread needs several --server/--peer/--export and"
                    + " gives nothing against a network observer, which sees the requests to every source; BIP 324"
                    + " encryption hides a block's name but not its size, which names most blocks. Synced block by"
                    + " block for weeks, a wallet that reuses an address across many blocks is named by a source"
                    + " that watches request timing: same report, section 'Block by block on the long chain'.",
            defaultValue = FetchPolicy.DEFAULT_SPEC)
    FetchPolicy fetchPolicy;

    /** What the command does to the wallet before syncing; nothing for a plain sync. */
    void before(LightWallet w) {}

    /** Whether every stored filter header is compared with the sources, not only the stored tip. */
    boolean everyStoredHeader() {
        return false;
    }

    @Override
    public Integer call() {
        LightWallet w = cli.load();
        before(w);
        List<ChainSource> sources = open(w.chain());
        try {
            long t0 = System.nanoTime();
            SyncEngine engine = new SyncEngine(
                    w,
                    sources,
                    SyncEngine.Options.defaults()
                            .withListener(quiet ? null : new ProgressBar(cli.err))
                            .withFetchPolicy(fetchPolicy));
            SyncReport r = everyStoredHeader() ? engine.verifyAndSync() : engine.sync();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("height", r.tipHeight());
            j.put("filtersScanned", r.filtersScanned());
            j.put("matchedBlocks", r.matchedBlocks());
            j.put("fetchPolicy", r.fetchPolicy().spec());
            j.put("decoyBlocks", r.decoyBlocks());
            j.put("reorgDepth", r.reorgDepth());
            j.put(
                    "balance",
                    w.ledger().spendableBalance(w.headers().tipHeight()).toPlainString());
            j.put(
                    "immature",
                    w.ledger().immatureBalance(w.headers().tipHeight()).toPlainString());
            j.put("millis", ms);
            j.put("sourcesUsed", r.sourcesUsed());
            j.put("dropped", r.dropped().stream().map(SourceFault::toString).toList());
            j.put("rolledBack", r.rollbacks());
            StringBuilder human = new StringBuilder("synced to height " + r.tipHeight() + ": " + r.filtersScanned()
                    + " filters, " + r.matchedBlocks() + " matched blocks, " + r.decoyBlocks() + " decoy blocks ("
                    + r.fetchPolicy().spec() + "), " + ms + " ms; balance "
                    + w.ledger().spendableBalance(w.headers().tipHeight()).toPlainString() + " BTC, immature "
                    + w.ledger().immatureBalance(w.headers().tipHeight()).toPlainString() + " BTC");
            for (SourceFault f : r.dropped()) {
                human.append("\ndropped ").append(f);
            }
            for (String rb : r.rollbacks()) {
                human.append("\nrolled back ").append(rb);
            }
            cli.print(j, human.toString());
            return 0;
        } finally {
            sources.forEach(ChainSource::close);
        }
    }
}
