package org.blockfilter.wallet.store.legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.store.ChainFiles;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.store.WalletFileContent;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Wallet files written by the one-document format (see {@link WriteLegacyFixtures}) load, are
 * rewritten once as a document plus flat header files, keep their keys, ledger and scan position,
 * and sync on from there.
 */
class LegacyMigrationTest {
    @TempDir
    Path dir;

    private Path copy(String name) throws Exception {
        Path target = dir.resolve("wallet.json");
        try (InputStream in = getClass().getResourceAsStream(name)) {
            Files.copy(in, target);
        }
        return target;
    }

    @ParameterizedTest
    @CsvSource({
        "v1-secret-only.json, SECRET_ONLY, 0, 4",
        "v1-sealed-all.json, ALL, 0, 4",
        "v1-watch-only-birthday-1100.json, NONE, 1001, 1"
    })
    void aFileOfTheOneDocumentFormatIsMigratedOnFirstOpenAndSyncsOn(
            String name, Sealing sealing, int filterStart, int payments) throws Exception {
        Path file = copy(name);
        assertTrue(Files.readString(file).contains("\"version\" : " + (sealing == Sealing.ALL ? 2 : 1)));
        char[] pass = sealing == Sealing.ALL ? TestWallets.PASSPHRASE : null;

        LightWallet w = LightWallet.load(file, pass);

        assertEquals(sealing, w.sealing());
        assertEquals(LegacyChain.SYNCED_TIP, w.headers().tipHeight());
        assertEquals(LegacyChain.SYNCED_TIP, w.scannedHeight());
        assertEquals(filterStart, w.filterHeaders().base());
        assertEquals(1, w.checkpoints().size());
        assertEquals(LegacyChain.PAYMENT.multiply(payments), w.ledger().balance(true));
        assertTrue(Files.size(ChainFiles.headers(file)) >= (LegacyChain.SYNCED_TIP + 1) * 80L);
        if (sealing != Sealing.ALL) {
            String doc = Files.readString(file);
            assertTrue(doc.contains("\"version\" : " + WalletFileContent.CURRENT_VERSION), doc);
            assertTrue(doc.length() < 20_000, "the document no longer holds the headers: " + doc.length() + " bytes");
        }
        RegtestChainBuilder chain = LegacyChain.build(w.keys(), LegacyChain.SYNCED_TIP);
        assertEquals(chain.tip().getHash(), w.headers().tipHash(), "migrated headers are the chain's");
        assertEquals(
                chain.filterHeader(LegacyChain.SYNCED_TIP), w.filterHeaders().header(LegacyChain.SYNCED_TIP));

        // It loads again without migrating, and syncs on from where the old file stopped.
        LightWallet again = LightWallet.load(file, pass);
        chain.mineBlock(List.of(chain.pay(
                List.of(again.keys()
                        .account(org.blockfilter.wallet.keys.AddressKind.P2WPKH)
                        .orElseThrow()
                        .derive(false, 0)
                        .address()),
                Coin.COIN)));
        chain.mine(5);
        MemorySource src = new MemorySource("honest", chain);
        SyncReport r = new SyncEngine(
                        again, List.of(src), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE))
                .sync();
        assertEquals(List.of(), r.dropped());
        assertEquals(chain.tipHeight(), again.scannedHeight());
        assertEquals(6, src.filtersServed, "only the new blocks' filters are fetched");
        assertEquals(
                LegacyChain.PAYMENT.multiply(payments).add(Coin.COIN),
                again.ledger().balance(true));
        assertEquals(
                again.ledger().balance(true),
                LightWallet.load(file, pass).ledger().balance(true));
    }
}
