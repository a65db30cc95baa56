package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.testchain.LyingSource;
import org.blockfilter.wallet.testchain.MemorySource;
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
        return new SyncEngine(wallet, List.of(sources), null).sync();
    }

    private static SourceFault fault(SyncReport r, String name) {
        return r.dropped().stream()
                .filter(f -> f.source().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " not dropped: " + r.dropped()));
    }

    /** The block's real filter minus the wallet's script, under the real block's key. */
    private BasicFilter filterWithout(int height, byte[] script) {
        Block b = chain.block(height);
        List<byte[]> items = new ArrayList<>();
        for (Transaction tx : b.getTransactions()) {
            for (TransactionOutput o : tx.getOutputs()) {
                byte[] s = o.getScriptBytes();
                if (s.length > 0 && (s[0] & 0xff) != 0x6a && !Arrays.equals(s, script)) {
                    items.add(s);
                }
            }
        }
        // Prevout of the payment: a miner coinbase output (the miner's script, already an output here).
        GolombCodedSet set = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, BasicFilter.key(b.getHash()), items);
        return BasicFilter.fromBytes(b.getHash(), set.encoded());
    }

    /** Serves a filter that omits the wallet's script, with filter headers and checkpoints consistent with the lie. */
    private class OmittingSource extends LyingSource {
        private final BasicFilter fake;
        private final List<Sha256Hash> fakeHeaders = new ArrayList<>();

        OmittingSource(String name, MemorySource honest) {
            super(name, honest);
            fake = filterWithout(
                    payHeight,
                    org.bitcoinj.script.ScriptBuilder.createOutputScript(paid).program());
            Sha256Hash prev = org.blockfilter.filters.FilterHeaders.GENESIS_PREV;
            for (int h = 0; h <= chain.tipHeight(); h++) {
                prev = org.blockfilter.filters.FilterHeaders.next(hashAt(h), prev);
                fakeHeaders.add(prev);
            }
        }

        private Sha256Hash hashAt(int h) {
            return h == payHeight ? fake.filterHash() : chain.filter(h).filterHash();
        }

        @Override
        public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
            FilterHashBatch real = honest.filterHeaders(startHeight, stopHash);
            List<Sha256Hash> hashes = new ArrayList<>();
            for (int i = 0; i < real.filterHashes().size(); i++) {
                hashes.add(hashAt(startHeight + i));
            }
            return new FilterHashBatch(
                    startHeight == 0
                            ? org.blockfilter.filters.FilterHeaders.GENESIS_PREV
                            : fakeHeaders.get(startHeight - 1),
                    hashes);
        }

        @Override
        public List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash) {
            List<Sha256Hash> out = new ArrayList<>();
            for (Sha256Hash ignored : honest.filterCheckpoints(stopHash)) {
                out.add(fakeHeaders.get((out.size() + 1) * org.blockfilter.filters.Bip157.CHECKPOINT_INTERVAL));
            }
            return out;
        }

        @Override
        public List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
            List<BlockFilterBytes> out = new ArrayList<>(honest.filters(startHeight, stopHash));
            if (payHeight >= startHeight && payHeight < startHeight + out.size()) {
                out.set(payHeight - startHeight, new BlockFilterBytes(fake.blockHash(), fake.bytes()));
            }
            return out;
        }
    }

    @Test
    void filterOmittingTheWalletsScriptIsRefutedByTheBlock() {
        SyncReport r =
                sync(new OmittingSource("liar", new MemorySource("h1", chain)), new MemorySource("honest", chain));

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
        SyncReport r = sync(new OmittingSource("liar", honestBehind), new MemorySource("honest", chain));

        SourceFault f = fault(r, "liar");
        assertEquals(SourceFault.Kind.LIED, f.kind());
        assertEquals(payHeight, f.height(), f.toString());
        assertEquals(chain.filterHeader(1000), wallet.checkpoints().get(0));
        assertEquals(Coin.COIN, wallet.ledger().balance(true));
    }

    @Test
    void filterThatDoesNotHashToItsHeaderIsCaught() {
        MemorySource honestBehind = new MemorySource("h1", chain);
        LyingSource liar = new OmittingSource("liar", honestBehind) {
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
        LyingSource liar = new OmittingSource("liar", honestBehind) {
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
        SyncReport r = sync(liar, new MemorySource("honest", chain));

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
