package org.blockfilter.wallet.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.HeaderCheckpoint;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppendOnlyStorageTest {
    @TempDir
    Path dir;

    private static Address addr(LightWallet w, int i) {
        return w.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, i)
                .address();
    }

    private static SyncReport sync(LightWallet w, MemorySource src) {
        return new SyncEngine(w, List.of(src), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE)).sync();
    }

    @Test
    void aSaveWritesBytesInProportionToTheNewBlocksNotToTheChain() {
        LightWallet w = TestWallets.create(dir);
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(5);
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, 0)), Coin.COIN)));
        chain.mine(2_994);
        MemorySource src = new MemorySource("honest", chain);
        sync(w, src);
        w.save();
        long idle = w.lastSaveBytes();

        chain.mine(10);
        sync(w, src);
        w.save();
        long afterTen = w.lastSaveBytes();
        LightWallet again = LightWallet.load(w.file());
        chain.mine(10);
        sync(again, src);
        long headersAndFilters = again.lastSaveBytes();

        // A save with nothing new writes the document only; one after 10 blocks adds 10 block
        // headers (84 bytes each with the CRC) and 10 filter headers (36 bytes): no chain rewrite.
        assertEquals(idle, afterTen, "the document's size does not depend on the chain's height");
        assertTrue(idle < 4_000, "document of " + idle + " bytes");
        assertTrue(headersAndFilters <= idle + 10 * (84 + 36) + 200, "wrote " + headersAndFilters);
        long chainBytes = 3_020L * 80;
        assertTrue(headersAndFilters < chainBytes / 20, "a save must not rewrite the " + chainBytes + "-byte chain");
        assertEquals(Coin.COIN, LightWallet.load(w.file()).ledger().balance(true));
    }

    @Test
    void headerFilesLongerThanTheTipRecordAfterACrashAreIgnoredAndOverwritten() throws Exception {
        LightWallet w = TestWallets.create(dir);
        RegtestChainBuilder chain = new RegtestChainBuilder().mine(30);
        MemorySource src = new MemorySource("honest", chain);
        sync(w, src);
        // As if a sync had appended records and died before its document.
        RecordFile headers = new RecordFile(ChainFiles.headers(w.file()), 80);
        List<byte[]> junk = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            junk.add(new byte[80]);
        }
        headers.write(headers.count(), junk);
        headers.close();
        appendPartialRecord(ChainFiles.filterHeaders(w.file()));

        LightWallet again = LightWallet.load(w.file());
        assertEquals(30, again.headers().tipHeight());
        chain.mine(3);
        assertEquals(List.of(), sync(again, src).dropped());
        assertEquals(33, LightWallet.load(w.file()).headers().tipHeight());
        assertEquals(34L * 84, Files.size(ChainFiles.headers(w.file())));
    }

    @Test
    void headerFilesShorterThanTheTipRecordRollTheWalletBackAndTheNextSyncRedownloads() throws Exception {
        LightWallet w = TestWallets.create(dir);
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(5);
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, 0)), Coin.COIN)));
        chain.mine(20);
        MemorySource src = new MemorySource("honest", chain);
        sync(w, src);
        truncateRecords(ChainFiles.headers(w.file()), 84, 4); // heights 0..3 survive
        truncateRecords(ChainFiles.filterHeaders(w.file()), 36, 3);

        LightWallet again = LightWallet.load(w.file());
        assertEquals(3, again.headers().tipHeight());
        assertEquals(Coin.ZERO, again.ledger().balance(true), "the payment's block is no longer held");
        assertEquals(List.of(), sync(again, src).dropped());
        assertEquals(chain.tipHeight(), again.headers().tipHeight());
        assertEquals(Coin.COIN, again.ledger().balance(true));
    }

    @Test
    void aReorgBelowTheCommittedTipRewritesTheRecordsAndReloads() {
        LightWallet w = TestWallets.create(dir);
        RegtestChainBuilder chain = new RegtestChainBuilder().mine(40);
        MemorySource src = new MemorySource("honest", chain);
        sync(w, src);
        RegtestChainBuilder fork = chain.forkAt(30).mine(15);
        src.switchTo(fork);
        SyncReport r = sync(w, src);
        assertEquals(10, r.reorgDepth());
        LightWallet again = LightWallet.load(w.file());
        assertEquals(fork.tip().getHash(), again.headers().tipHash());
        assertEquals(fork.filterHeader(45), again.filterHeaders().header(45));
        assertEquals(fork.block(35).getHash(), again.headers().hash(35));
    }

    @Test
    void aRestoreFromACheckpointDownloadsNoHeaderBelowItAndFindsItsPayments() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet probe = TestWallets.create(dir);
        chain.mine(1_520);
        chain.mineBlock(List.of(chain.pay(List.of(addr(probe, 0)), Coin.COIN)));
        chain.mine(30);
        List<HeaderCheckpoint> checkpoints = List.of(checkpoint(chain, 500), checkpoint(chain, 1_400));
        CountingSource src = new CountingSource(chain);
        LightWallet w = p2wpkh("restored.json", LightWallet.Birthday.ofHeight(1_500), checkpoints);
        assertEquals(1_400, w.headers().baseHeight());

        SyncReport r = sync(w, src);

        assertEquals(List.of(), r.dropped());
        assertEquals(Coin.COIN, w.ledger().balance(true));
        assertTrue(src.lowestHeaderAsked >= 1_400, "asked for a header at " + src.lowestHeaderAsked);
        assertTrue(
                src.lowestFilterHeaderAsked >= 1_400, "asked for filter headers from " + src.lowestFilterHeaderAsked);
        LightWallet again = LightWallet.load(w.file());
        assertEquals(1_400, again.headers().baseHeight());
        assertEquals(chain.tipHeight(), again.headers().tipHeight());
        assertEquals(
                (chain.tipHeight() - 1_400 + 1) * 84L,
                Files.exists(ChainFiles.headers(w.file())) ? sizeOf(ChainFiles.headers(w.file())) : -1);
        assertEquals(Coin.COIN, again.ledger().balance(true));
    }

    @Test
    void aNewWalletStartsAtTheLastCheckpointAndScansNothingBeforeTheTipItsFirstSyncSees() {
        RegtestChainBuilder chain = new RegtestChainBuilder().mine(1_200);
        CountingSource src = new CountingSource(chain);
        LightWallet w = p2wpkh("new.json", LightWallet.Birthday.atTip(), List.of(checkpoint(chain, 1_100)));
        sync(w, src);
        assertEquals(1_200, w.birthdayHeight());
        assertEquals(1, src.filtersServed, "only the tip's filter");
        assertTrue(src.lowestHeaderAsked >= 1_100);
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, 0)), Coin.COIN)));
        sync(LightWallet.load(w.file()), src);
        assertEquals(Coin.COIN, LightWallet.load(w.file()).ledger().balance(true));
        assertEquals(1_200, LightWallet.load(w.file()).birthdayHeight());
    }

    private LightWallet p2wpkh(String name, LightWallet.Birthday birthday, List<HeaderCheckpoint> checkpoints) {
        return NewWallet.create(
                dir.resolve(name),
                TestWallets.MNEMONIC,
                TestWallets.PASSPHRASE,
                EnumSet.of(AddressKind.P2WPKH),
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(birthday)
                        .withScryptN(1 << 10)
                        .withCheckpoints(checkpoints));
    }

    static HeaderCheckpoint checkpoint(RegtestChainBuilder chain, int height) {
        BigInteger work = BigInteger.ZERO;
        for (int h = 0; h <= height; h++) {
            work = work.add(chain.block(h).getWork());
        }
        return new HeaderCheckpoint(height, chain.header(height), work);
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void appendPartialRecord(Path p) throws Exception {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[17]));
        }
    }

    private static void truncateRecords(Path p, int stride, int keep) throws Exception {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ch.truncate((long) stride * keep);
        }
    }

    /** Records the lowest height it was asked headers or filter headers for. */
    static final class CountingSource extends MemorySource {
        int lowestHeaderAsked = Integer.MAX_VALUE;
        int lowestFilterHeaderAsked = Integer.MAX_VALUE;

        CountingSource(RegtestChainBuilder chain) {
            super("counting", chain);
        }

        @Override
        public List<byte[]> blockHeaders(int startHeight, int count) {
            lowestHeaderAsked = Math.min(lowestHeaderAsked, startHeight);
            return super.blockHeaders(startHeight, count);
        }

        @Override
        public FilterHashBatch filterHeaders(int startHeight, org.bitcoinj.base.Sha256Hash stopHash) {
            lowestFilterHeaderAsked = Math.min(lowestFilterHeaderAsked, startHeight);
            return super.filterHeaders(startHeight, stopHash);
        }
    }
}
