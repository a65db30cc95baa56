package org.blockfilter.regtest.mainnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitcoinj.core.Block;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.PrevoutScripts;
import org.blockfilter.regtest.mainnet.internal.RawBlock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The steady blocks of a generated chain land within tolerances of the targets documented in
 * docs/mainnet-profile.md (the tolerances allow for 60 blocks of sampling noise, not for a
 * different shape).
 */
class ProfileStatisticsTest {
    /** ~50 ramp blocks to 1,000,000 UTXOs, then 60 mainnet-shaped blocks. */
    private static final MainnetProfile PROFILE =
            MainnetProfile.MAINNET.withUtxoTarget(1_000_000).withSteadyBlocks(60);

    @TempDir
    static Path dir;

    private static ProfileChain chain;
    private static long txs;
    private static long inputs;
    private static long outputs;
    private static long opReturnTxs;
    private static long reused;
    private static long spendsYoung;
    private static long spendsOld;
    private static final Map<ScriptType, Long> types = new EnumMap<>(ScriptType.class);

    @BeforeAll
    static void generateAndCount() throws IOException {
        chain = ProfileChain.open(ChainGenerator.ensure(PROFILE, dir, ChainGeneratorTest.QUIET));
        Set<ByteBuffer> seen = new HashSet<>();
        for (int h = 1; h <= chain.tipHeight(); h++) {
            byte[] raw = chain.rawBlock(h);
            RawBlock block = RawBlock.parse(raw);
            boolean steady = h > chain.rampEndHeight();
            for (int t = 0; t < block.txs().size(); t++) {
                RawBlock.Tx tx = block.txs().get(t);
                boolean hasOpReturn = false;
                for (RawBlock.Output o : tx.outputs()) {
                    ByteBuffer script = ByteBuffer.wrap(
                                    raw, o.script().offset(), o.script().length())
                            .slice();
                    ScriptType type = ScriptType.classify(bytes(script));
                    hasOpReturn |= type == ScriptType.OP_RETURN;
                    boolean before = type != ScriptType.OP_RETURN && !seen.add(script);
                    if (steady && t > 0) {
                        outputs++;
                        types.merge(type, 1L, Long::sum);
                        reused += before ? 1 : 0;
                    }
                }
                if (steady && t > 0) {
                    txs++;
                    inputs += tx.inputs().size();
                    opReturnTxs += hasOpReturn ? 1 : 0;
                }
            }
            if (steady) {
                for (Prevout p : chain.prevouts(h)) {
                    spendsYoung += h - p.height() <= 6 ? 1 : 0;
                    spendsOld += h - p.height() > 30 ? 1 : 0;
                }
            }
        }
    }

    @AfterAll
    static void close() throws IOException {
        chain.close();
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void steadyBlocksHaveAboutThreeThousandTransactions() {
        double perBlock = (txs + PROFILE.steadyBlocks()) / (double) PROFILE.steadyBlocks();
        assertEquals(3_000, perBlock, 150, "transactions per block");
    }

    @Test
    void inputsAndOutputsPerTransactionFollowTheDocumentedDistributions() {
        assertEquals(2.07, inputs / (double) txs, 0.15, "inputs per transaction");
        assertEquals(2.74, outputs / (double) txs, 0.2, "outputs per transaction");
        assertEquals(0.05, opReturnTxs / (double) txs, 0.01, "share of transactions with an OP_RETURN output");
    }

    @Test
    void scriptMixMatchesTheDocumentedShares() {
        long spendable = outputs - types.getOrDefault(ScriptType.OP_RETURN, 0L);
        Map<ScriptType, Double> target = Map.of(
                ScriptType.P2WPKH, 0.54,
                ScriptType.P2TR, 0.21,
                ScriptType.P2PKH, 0.08,
                ScriptType.P2SH, 0.12,
                ScriptType.P2WSH, 0.05);
        target.forEach((type, share) ->
                assertEquals(share, types.getOrDefault(type, 0L) / (double) spendable, 0.03, type + " share"));
        assertEquals(null, types.get(null), "every output fits a known template");
    }

    @Test
    void aboutHalfOfTheOutputsPayAPreviouslyUsedScript() {
        double share = reused / (double) (outputs - types.getOrDefault(ScriptType.OP_RETURN, 0L));
        assertTrue(share > 0.45 && share < 0.70, "reused share " + share);
    }

    @Test
    void spendsAreSkewedToYoungOutputsWithALongTail() {
        double young = spendsYoung / (double) inputs;
        double old = spendsOld / (double) inputs;
        assertTrue(young > 0.3 && young < 0.7, "share of spends of outputs at most 6 blocks old: " + young);
        assertTrue(old > 0.2, "share of spends of outputs more than 30 blocks old: " + old);
    }

    @Test
    void steadyFiltersHaveAboutSevenThousandFourHundredElementsAndNineteenKilobytes() {
        long elements = 0;
        long bytes = 0;
        int sampled = 0;
        for (int h = chain.rampEndHeight() + 1; h <= chain.tipHeight(); h += 12) {
            Block block = Block.read(ByteBuffer.wrap(chain.rawBlock(h)));
            List<byte[]> scripts =
                    chain.prevouts(h).stream().map(Prevout::script).toList();
            PrevoutScripts prevouts = PrevoutScripts.inInputOrder(block, scripts);
            elements += BasicFilter.elements(block, prevouts).size();
            bytes += BasicFilter.build(block, prevouts).bytes().length;
            sampled++;
        }
        assertEquals(7_400, elements / (double) sampled, 7_400 * 0.15, "filter elements per block");
        assertEquals(19_000, bytes / (double) sampled, 19_000 * 0.15, "filter bytes per block");
    }
}
