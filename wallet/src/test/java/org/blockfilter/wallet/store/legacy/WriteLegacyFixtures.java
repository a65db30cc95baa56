package org.blockfilter.wallet.store.legacy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;

/** Wrote the legacy fixtures once, with the one-document format's code; kept to show how they were made. */
public final class WriteLegacyFixtures {
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        Path tmp = Files.createTempDirectory("legacy");
        for (String d : List.of("s", "a", "w")) {
            Files.createDirectories(tmp.resolve(d));
        }
        LightWallet secretOnly =
                TestWallets.create(tmp.resolve("s"), LightWallet.Birthday.ofHeight(0), Sealing.SECRET_ONLY);
        RegtestChainBuilder chain = LegacyChain.build(secretOnly.keys(), LegacyChain.SYNCED_TIP);
        MemorySource src = new MemorySource("memory", chain);
        sync(secretOnly, src);
        Files.copy(secretOnly.file(), out.resolve("v1-secret-only.json"));

        LightWallet sealed = TestWallets.create(tmp.resolve("a"), LightWallet.Birthday.ofHeight(0), Sealing.ALL);
        sync(sealed, src);
        Files.copy(sealed.file(), out.resolve("v1-sealed-all.json"));

        String xpub =
                secretOnly.keys().account(AddressKind.P2WPKH).orElseThrow().extendedPublicKey();
        LightWallet watch = NewWallet.watchOnly(
                tmp.resolve("w").resolve("wallet.json"),
                List.of(HdAccount.watchOnly(xpub, AddressKind.P2WPKH, Chain.REGTEST.addressNetwork())),
                null,
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(1_100))
                        .withSealing(Sealing.NONE));
        sync(watch, src);
        Files.copy(watch.file(), out.resolve("v1-watch-only-birthday-1100.json"));
        for (LightWallet w : List.of(secretOnly, sealed, watch)) {
            System.out.println(w.file() + " tip " + w.headers().tipHeight() + " scanned " + w.scannedHeight()
                    + " fh " + w.filterHeaders().base() + ".."
                    + w.filterHeaders().tipHeight() + " cps "
                    + w.checkpoints().size() + " balance " + w.ledger().balance(true) + " txs "
                    + w.ledger().transactions().size());
        }
    }

    private static void sync(LightWallet w, MemorySource src) {
        new SyncEngine(w, List.of(src), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE)).sync();
    }
}
