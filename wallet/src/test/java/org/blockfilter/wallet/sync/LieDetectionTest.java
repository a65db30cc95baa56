package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.testchain.LyingSource;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.OmittingSource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deliberately lying sources wrapped around an honest one. Each lie is detected, the liar is named
 * and dropped, and the balance is right (or sync refuses when no honest source is left).
 */
class LieDetectionTest {
    @TempDir
    Path dir;

    private LightWallet wallet;
    private RegtestChainBuilder chain;
    private int payHeight;
    private Address paid;

    @BeforeEach
    void chainPayingTheWallet() {
        wallet = TestWallets.create(dir);
        chain = new RegtestChainBuilder();
        chain.mine(4);
        paid = wallet.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, 0)
                .address();
        chain.mineBlock(List.of(chain.pay(List.of(paid), Coin.COIN)));
        payHeight = chain.tipHeight();
        chain.mine(5);
    }

    private SyncReport sync(ChainSource... sources) {
        return new SyncEngine(wallet, List.of(sources), SyncEngine.Options.defaults()).sync();
    }

    /**
     * A sync that asks the first source for every block. The default policy spreads blocks over
     * sources by a hash of the wallet's seed and the block, so whether a lying source is asked for
     * one particular block depends on both; a test of block verification must not.
     */
    private SyncReport syncFirstSourceFirst(ChainSource... sources) {
        return new SyncEngine(
                        wallet, List.of(sources), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE))
                .sync();
    }

    private static SourceFault fault(SyncReport r, String name) {
        return r.dropped().stream()
                .filter(f -> f.source().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " not dropped: " + r.dropped()));
    }

    /** Serves a filter at the payment that omits the wallet's script, with filter headers and checkpoints consistent with the lie. */
    private OmittingSource omitting(String name, ChainSource honest) {
        return new OmittingSource(name, honest, chain, payHeight, paid);
    }

    @Test
    void filterOmittingTheWalletsScriptIsRefutedByTheBlock() {
        SyncReport r = sync(omitting("liar", new MemorySource("h1", chain)), new MemorySource("honest", chain));

        SourceFault f = fault(r, "liar");
        assertEquals(SourceFault.Kind.LIED, f.kind());
        assertEquals(payHeight, f.height());
        assertTrue(f.reason().contains("does not contain script"), f.reason());
        assertEquals(List.of("honest"), r.sourcesUsed());
        assertEquals(Coin.COIN, wallet.ledger().balance(true));
    }

    @Test
    void checkpointDisagreementIsSettledByTheBlock() {
        chain.mine(1_000); // past the first checkpoint (height 1000), which the lie changes
        MemorySource honestBehind = new MemorySource("h1", chain);
        SyncReport r = sync(omitting("liar", honestBehind), new MemorySource("honest", chain));

        SourceFault f = fault(r, "liar");
        assertEquals(SourceFault.Kind.LIED, f.kind());
        assertEquals(payHeight, f.height(), f.toString());
        assertEquals(chain.filterHeader(1000), wallet.checkpoints().get(0));
        assertEquals(Coin.COIN, wallet.ledger().balance(true));
    }

    @Test
    void filterThatDoesNotHashToItsHeaderIsCaught() {
        MemorySource honestBehind = new MemorySource("h1", chain);
        LyingSource liar = new OmittingSource("liar", honestBehind, chain, payHeight, paid) {
            @Override
            public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
                return honest.filterHeaders(startHeight, stopHash); // honest headers, lying filter
            }
        };
        SyncReport r = sync(liar, new MemorySource("honest", chain));

        SourceFault f = fault(r, "liar");
        assertEquals(SourceFault.Kind.LIED, f.kind());
        assertTrue(f.reason().contains("does not hash to its committed filter header"), f.reason());
        assertEquals(Coin.COIN, wallet.ledger().balance(true));
    }

    @Test
    void lyingFilterWithNoHonestSourceStopsSyncInsteadOfAWrongBalance() {
        MemorySource honestBehind = new MemorySource("h1", chain);
        LyingSource liar = new OmittingSource("liar", honestBehind, chain, payHeight, paid) {
            @Override
            public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
                return honest.filterHeaders(startHeight, stopHash);
            }
        };
        SyncException e = assertThrows(SyncException.class, () -> sync(liar));
        assertTrue(e.getMessage().contains("liar"), e.getMessage());
        assertEquals(Coin.ZERO, LightWallet.load(wallet.file()).ledger().balance(true));
        assertTrue(LightWallet.load(wallet.file()).scannedHeight() < payHeight);
    }

    @Test
    void headerChainThatDoesNotLinkIsCaught() {
        int k = 3;
        LyingSource liar = new LyingSource("liar", new MemorySource("h1", chain)) {
            @Override
            public List<byte[]> blockHeaders(int startHeight, int count) {
                List<byte[]> out = new ArrayList<>(honest.blockHeaders(startHeight, count));
                if (k >= startHeight && k < startHeight + out.size()) {
                    byte[] h = out.get(k - startHeight).clone();
                    h[40] ^= 1; // merkle root changed: the header hash changes, the next header no longer links
                    out.set(k - startHeight, h);
                }
                return out;
            }
        };
        SyncReport r = sync(liar, new MemorySource("honest", chain));

        SourceFault f = fault(r, "liar");
        assertEquals(SourceFault.Kind.LIED, f.kind());
        assertTrue(f.height() == k || f.height() == k + 1, f.toString());
        assertEquals(chain.tipHeight(), wallet.headers().tipHeight());
        assertEquals(Coin.COIN, wallet.ledger().balance(true));
    }

    @Test
    void forkWithLessWorkIsDroppedAndTheBestChainKept() {
        RegtestChainBuilder fork = chain.forkAt(payHeight - 1);
        fork.mine(3); // shorter than the honest branch, and without the payment
        SyncReport r = sync(new MemorySource("forked", fork), new MemorySource("honest", chain));

        SourceFault f = fault(r, "forked");
        assertEquals(SourceFault.Kind.WEAKER_CHAIN, f.kind());
        assertEquals(chain.block(chain.tipHeight()).getHash(), wallet.headers().tipHash());
        assertEquals(Coin.COIN, wallet.ledger().balance(true));
    }

    @Test
    void blockThatDoesNotMatchItsHeaderIsCaught() {
        LyingSource liar = new LyingSource("liar", new MemorySource("h1", chain)) {
            @Override
            public byte[] block(Sha256Hash blockHash) {
                // The real header with the wallet's payment removed from the transactions.
                Block real = Block.read(ByteBuffer.wrap(honest.block(blockHash)));
                List<Transaction> txs = new ArrayList<>(real.getTransactions().subList(0, 1));
                Block forged = new Block(
                        real.getVersion(),
                        real.getPrevBlockHash(),
                        real.getMerkleRoot(),
                        real.time(),
                        real.getDifficultyTarget(),
                        real.getNonce(),
                        txs);
                return forged.serialize();
            }
        };
        SyncReport r = syncFirstSourceFirst(liar, new MemorySource("honest", chain));

        SourceFault f = fault(r, "liar");
        assertEquals(SourceFault.Kind.LIED, f.kind());
        assertEquals(payHeight, f.height());
        assertTrue(f.reason().contains("merkle") || f.reason().contains("do not match"), f.reason());
        assertEquals(Coin.COIN, wallet.ledger().balance(true));
    }

    @Test
    void blockLieWithNoHonestSourceStopsSync() {
        LyingSource liar = new LyingSource("liar", new MemorySource("h1", chain)) {
            @Override
            public byte[] block(Sha256Hash blockHash) {
                return honest.block(chain.block(1).getHash());
            }
        };
        SyncException e = assertThrows(SyncException.class, () -> sync(liar));
        assertTrue(e.getMessage().contains("liar"), e.getMessage());
    }
}
