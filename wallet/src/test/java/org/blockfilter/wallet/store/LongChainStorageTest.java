package org.blockfilter.wallet.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.SyntheticHeaderSource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chain longer than the one-document format could hold: its Base64 header string passed
 * Jackson's 20,000,000-character limit at about 187,500 headers, so a wallet synced past that wrote
 * a file it could not read back. Synthetic headers, empty filters.
 */
class LongChainStorageTest {
    @TempDir
    Path dir;

    @Test
    void aWalletSyncedPast190000HeadersSavesAndLoadsAndItsDocumentStaysSmall() throws Exception {
        SyntheticHeaderSource src = new SyntheticHeaderSource(190_000);
        LightWallet w = NewWallet.create(
                dir.resolve("wallet.json"),
                TestWallets.MNEMONIC,
                TestWallets.PASSPHRASE,
                EnumSet.of(AddressKind.P2WPKH),
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(189_995))
                        .withScryptN(1 << 10));
        new SyncEngine(w, List.of(src), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE)).sync();

        LightWallet again = LightWallet.load(w.file());
        assertEquals(190_000, again.headers().tipHeight());
        assertEquals(190_000, again.scannedHeight());
        assertTrue(Files.size(w.file()) < 10_000, "document of " + Files.size(w.file()) + " bytes");
        assertEquals(190_001L * 84, Files.size(ChainFiles.headers(w.file())));
    }
}
