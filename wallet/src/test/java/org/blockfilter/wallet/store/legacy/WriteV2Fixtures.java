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
import org.blockfilter.wallet.store.ChainFiles;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;

/**
 * Wrote the version 2 fixtures (accounts as kind + xpub, no descriptors, no labels) once, with the
 * code of that format (commit 0a816fe); kept to show how they were made. Each wallet is its four
 * files: the document and its header, filter-header and checkpoint files.
 */
public final class WriteV2Fixtures {
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        Path tmp = Files.createTempDirectory("v2");
        Files.createDirectories(tmp.resolve("s"));
        Files.createDirectories(tmp.resolve("w"));
        LightWallet secretOnly =
                TestWallets.create(tmp.resolve("s"), LightWallet.Birthday.ofHeight(0), Sealing.SECRET_ONLY);
        RegtestChainBuilder chain = LegacyChain.build(secretOnly.keys(), LegacyChain.SYNCED_TIP);
        MemorySource src = new MemorySource("memory", chain);
        new SyncEngine(secretOnly, List.of(src), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE))
                .sync();
        copy(secretOnly.file(), out, "v2-secret-only");

        String xpub =
                secretOnly.keys().account(AddressKind.P2WPKH).orElseThrow().extendedPublicKey();
        LightWallet watch = NewWallet.watchOnly(
                tmp.resolve("w").resolve("wallet.json"),
                List.of(HdAccount.watchOnly(xpub, AddressKind.P2WPKH, Chain.REGTEST.addressNetwork())),
                null,
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withSealing(Sealing.NONE));
        new SyncEngine(watch, List.of(src), SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE)).sync();
        copy(watch.file(), out, "v2-watch-only");
    }

    private static void copy(Path file, Path out, String name) throws Exception {
        Files.copy(file, out.resolve(name + ".json"));
        Files.copy(ChainFiles.headers(file), out.resolve(name + ".json.headers"));
        Files.copy(ChainFiles.filterHeaders(file), out.resolve(name + ".json.filterheaders"));
        Files.copy(ChainFiles.checkpoints(file), out.resolve(name + ".json.checkpoints"));
    }
}
