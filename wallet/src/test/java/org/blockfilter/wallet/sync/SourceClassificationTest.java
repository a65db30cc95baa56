package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A source is classified by what it did, in one place: here, an honest source of another network. */
class SourceClassificationTest {
    @TempDir
    Path dir;

    @Test
    void anHonestSourceOfAnotherNetworkIsNamedAsSuchWithTheWalletsNetwork() {
        LightWallet testnet = NewWallet.create(
                dir.resolve("testnet.json"),
                TestWallets.MNEMONIC,
                TestWallets.PASSPHRASE,
                EnumSet.of(AddressKind.P2WPKH),
                NewWallet.Options.of(Chain.TESTNET3)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withScryptN(1 << 10));
        RegtestChainBuilder regtest = new RegtestChainBuilder();
        regtest.mine(3);

        SyncException e = assertThrows(
                SyncException.class,
                () -> new SyncEngine(
                                testnet,
                                List.of(new MemorySource("regtest-server", regtest)),
                                SyncEngine.Options.defaults())
                        .sync());

        assertEquals(1, e.faults().size(), e.getMessage());
        SourceFault f = e.faults().get(0);
        assertTrue(
                f.toString()
                        .startsWith("regtest-server OTHER_NETWORK: is on another network: its genesis is "
                                + regtest.block(0).getHash() + " (regtest's); this wallet is a testnet3 wallet"),
                f.toString());
        assertEquals(0, testnet.headers().tipHeight());
    }
}
