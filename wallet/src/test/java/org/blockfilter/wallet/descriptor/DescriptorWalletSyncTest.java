package org.blockfilter.wallet.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.HDKeyDerivation;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watch-only wallets made from descriptors sync through compact filters like any wallet: a 2-of-3
 * {@code wsh(sortedmulti)} of three cosigners' BIP 48 xpubs and an {@code sh(wpkh)} account find
 * their payments on both chains, past the first gap window, and keep them across a reload.
 */
class DescriptorWalletSyncTest {
    @TempDir
    Path dir;

    private static String cosigner(int seed) {
        byte[] s = new byte[32];
        s[0] = (byte) seed;
        DeterministicKey master = HDKeyDerivation.createMasterPrivateKey(s);
        DeterministicKey k = master;
        List<ChildNumber> path = List.of(
                new ChildNumber(48, true),
                ChildNumber.COINTYPE_TBTC,
                ChildNumber.ZERO_HARDENED,
                new ChildNumber(2, true));
        for (ChildNumber c : path) {
            k = HDKeyDerivation.deriveChildKey(k, c);
        }
        return "[" + new KeyOrigin(master.getFingerprint(), path) + "]"
                + DescriptorKey.publicKeyOf(k, BitcoinNetwork.REGTEST).serializePubB58(BitcoinNetwork.REGTEST)
                + "/<0;1>/*";
    }

    @Test
    void sortedMultisigAndNestedSegwitWalletsReceiveThroughFilters() {
        Descriptor multi = Descriptor.parse(
                "wsh(sortedmulti(2," + cosigner(1) + "," + cosigner(2) + "," + cosigner(3) + "))",
                BitcoinNetwork.REGTEST);
        Descriptor nested = Descriptor.parse(
                "sh(wpkh(" + cosigner(4).replace("/<0;1>/*", "/<0;1>/*") + "))", BitcoinNetwork.REGTEST);
        LightWallet w = NewWallet.watchOnly(
                dir.resolve("multi.json"),
                List.of(HdAccount.fromDescriptors(multi, null), HdAccount.fromDescriptors(nested, null)),
                null,
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withSealing(Sealing.NONE)
                        .withScryptN(1 << 10));
        HdAccount m = w.keys().account(AddressKind.P2WSH).orElseThrow();
        HdAccount n = w.keys().account(AddressKind.P2SH_P2WPKH).orElseThrow();
        assertTrue(m.derive(false, 0).address().toString().startsWith("bcrt1q"));
        assertEquals(64, m.derive(false, 0).address().toString().length(), "a P2WSH address (32-byte program)");
        assertTrue(n.derive(false, 0).address().toString().startsWith("2"));

        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(101);
        chain.mineBlock(List.of(chain.pay(List.of(m.derive(false, 0).address()), Coin.COIN)));
        chain.mineBlock(List.of(chain.pay(List.of(m.derive(false, 19).address()), Coin.COIN)));
        chain.mineBlock(List.of(chain.pay(List.of(m.derive(false, 35).address()), Coin.COIN))); // after the window slid
        chain.mineBlock(List.of(chain.pay(List.of(m.derive(true, 2).address()), Coin.CENT)));
        chain.mineBlock(List.of(chain.pay(List.of(n.derive(false, 1).address()), Coin.CENT)));
        chain.mine(2);
        new SyncEngine(
                        w,
                        List.of(new MemorySource("honest", chain)),
                        SyncEngine.Options.defaults().withFetchPolicy(FetchPolicy.NONE))
                .sync();

        Coin expected = Coin.COIN.multiply(3).add(Coin.CENT.multiply(2));
        assertEquals(expected, w.ledger().balance(true));
        assertEquals(5, w.ledger().utxos(true).size());
        LightWallet again = LightWallet.load(w.file());
        assertEquals(expected, again.ledger().balance(true));
        assertEquals(
                multi.toString(),
                again.keys()
                        .account(AddressKind.P2WSH)
                        .orElseThrow()
                        .descriptor()
                        .toString());
    }
}
