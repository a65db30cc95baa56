package org.blockfilter.wallet.store.legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.store.WalletFileContent;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Wallet files of version 2 (accounts as kind and xpub; written by that format's code, see {@link
 * WriteV2Fixtures}) load with descriptors built from their xpubs (no key origin: the file has
 * none), keep their addresses, ledger and scan position, are rewritten as version 3 on the next
 * save, and sync on.
 */
class Version2MigrationTest {
    @TempDir
    Path dir;

    private Path copy(String name) throws Exception {
        Path target = dir.resolve("wallet.json");
        for (String suffix : List.of("", ".headers", ".filterheaders", ".checkpoints")) {
            try (InputStream in =
                    getClass().getResourceAsStream("/org/blockfilter/wallet/store/v2/" + name + ".json" + suffix)) {
                Files.copy(in, Path.of(target + suffix));
            }
        }
        return target;
    }

    @ParameterizedTest
    @CsvSource({"v2-secret-only, 3, 4", "v2-watch-only, 1, 4"})
    void aVersion2FileLoadsWithDescriptorsAndIsRewrittenAsVersion3(String name, int accounts, int payments)
            throws Exception {
        Path file = copy(name);
        assertTrue(Files.readString(file).contains("\"version\" : 2"));
        LightWallet w = LightWallet.load(file);
        assertEquals(accounts, w.keys().accounts().size());
        assertEquals(LegacyChain.SYNCED_TIP, w.scannedHeight());
        assertEquals(LegacyChain.PAYMENT.multiply(payments), w.ledger().balance(true));

        WalletKeys expected =
                WalletKeys.fromMnemonic(TestWallets.MNEMONIC, "", w.network(), 20, AddressKind.seedKinds());
        for (HdAccount a : w.keys().accounts()) {
            String d = a.descriptor().toString();
            assertFalse(d.contains("["), "a version 2 file has no key origin: " + d);
            assertTrue(d.contains("/<0;1>/*)#"), d);
            HdAccount full = expected.account(a.kind()).orElseThrow();
            for (int i = 0; i < 25; i++) {
                assertEquals(full.derive(false, i).script(), a.derive(false, i).script());
                assertEquals(full.derive(true, i).script(), a.derive(true, i).script());
            }
        }

        w.save();
        String doc = Files.readString(file);
        assertTrue(doc.contains("\"version\" : " + WalletFileContent.CURRENT_VERSION), doc);
        assertTrue(doc.contains("\"descriptor\" : \"wpkh("), doc);
        LightWallet again = LightWallet.load(file);
        assertEquals(
                w.keys().account(AddressKind.P2WPKH).orElseThrow().descriptor(),
                again.keys().account(AddressKind.P2WPKH).orElseThrow().descriptor());

        RegtestChainBuilder chain = LegacyChain.build(again.keys(), LegacyChain.SYNCED_TIP);
        chain.mineBlock(List.of(chain.pay(
                List.of(again.keys()
                        .account(AddressKind.P2WPKH)
                        .orElseThrow()
                        .derive(false, 10)
                        .address()),
                Coin.COIN)));
        MemorySource src = new MemorySource("honest", chain);
        new SyncEngine(again, List.of(src), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE)).sync();
        assertEquals(
                LegacyChain.PAYMENT.multiply(payments).add(Coin.COIN),
                again.ledger().balance(true));
    }
}
