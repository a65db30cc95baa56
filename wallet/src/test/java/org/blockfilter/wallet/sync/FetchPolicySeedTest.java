package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.blockfilter.wallet.descriptor.Descriptor;
import org.blockfilter.wallet.descriptor.DescriptorKey;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.junit.jupiter.api.Test;

/** The fetch policy's per-wallet seed is the accounts' keys, not how the accounts are written. */
class FetchPolicySeedTest {
    private static final BitcoinNetwork NET = BitcoinNetwork.REGTEST;

    private static String xpub(int i) {
        DeterministicKey k = HDKeyDerivation.createMasterPrivateKey(("seed test cosigner " + i).getBytes());
        k = HDKeyDerivation.deriveChildKey(k, new ChildNumber(48, true));
        return DescriptorKey.publicKeyOf(k, NET).serializePubB58(NET);
    }

    private static HdAccount account(String descriptor, String change) {
        return HdAccount.fromDescriptors(
                Descriptor.parse(descriptor, NET), change == null ? null : Descriptor.parse(change, NET));
    }

    @Test
    void aMultisigAccountHasOneSeedWhicheverWayItsDescriptorIsWritten() {
        String multipath = "wsh(sortedmulti(2," + xpub(1) + "/<0;1>/*," + xpub(2) + "/<0;1>/*))";
        String withOrigin =
                "wsh(sortedmulti(2,[deadbeef/48h/1h]" + xpub(1) + "/<0;1>/*,[cafebabe/48h/1h]" + xpub(2) + "/<0;1>/*))";
        HdAccount a = account(multipath, null);
        HdAccount b = account(withOrigin, null);
        HdAccount c = account(
                "wsh(sortedmulti(2," + xpub(1) + "/0/*," + xpub(2) + "/0/*))",
                "wsh(sortedmulti(2," + xpub(1) + "/1/*," + xpub(2) + "/1/*))");
        byte[] seed = BlockFetcher.seed(List.of(a));
        assertArrayEquals(seed, BlockFetcher.seed(List.of(b)), "origin info");
        assertArrayEquals(seed, BlockFetcher.seed(List.of(c)), "two descriptors instead of one multipath");
        HdAccount other = account("wsh(sortedmulti(2," + xpub(1) + "/<0;1>/*," + xpub(3) + "/<0;1>/*))", null);
        assertFalse(Arrays.equals(seed, BlockFetcher.seed(List.of(other))), "another cosigner");
    }

    @Test
    void aSingleKeyAccountKeepsTheSeedItHadBefore() throws Exception {
        // Before, the seed hashed each account's extendedPublicKey(); for a single-key account that is its key, so
        // its wallet keeps the same spread and decoys.
        HdAccount a = HdAccount.fromMaster(
                HDKeyDerivation.createMasterPrivateKey("seed test single".getBytes()), AddressKind.P2WPKH, NET);
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        d.update("blockfilter/fetch-policy/v1".getBytes(StandardCharsets.UTF_8));
        d.update(a.kind().name().getBytes(StandardCharsets.UTF_8));
        d.update(a.extendedPublicKey().getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(d.digest(), BlockFetcher.seed(List.of(a)));
    }
}
