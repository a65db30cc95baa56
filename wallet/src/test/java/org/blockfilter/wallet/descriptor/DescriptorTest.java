package org.blockfilter.wallet.descriptor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.bitcoinj.crypto.MnemonicCode;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.Taproot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a signer and the wallet rely on, and the message each bad descriptor gets. */
class DescriptorTest {
    private static final List<String> WORDS = List.of(
            "abandon", "abandon", "abandon", "abandon", "abandon", "abandon", "abandon", "abandon", "abandon",
            "abandon", "abandon", "about");
    private static final DeterministicKey MASTER =
            HDKeyDerivation.createMasterPrivateKey(MnemonicCode.toSeed(WORDS, ""));
    private static final BitcoinNetwork REGTEST = BitcoinNetwork.REGTEST;

    private static DeterministicKey account(int purpose) {
        DeterministicKey k = MASTER;
        for (ChildNumber c :
                List.of(new ChildNumber(purpose, true), ChildNumber.COINTYPE_TBTC, ChildNumber.ZERO_HARDENED)) {
            k = HDKeyDerivation.deriveChildKey(k, c);
        }
        return k;
    }

    private static String tpub(int purpose) {
        return account(purpose).dropPrivateBytes().serializePubB58(REGTEST);
    }

    private static String origin(int purpose) {
        return String.format("[%08x/%dh/1h/0h]", MASTER.getFingerprint(), purpose);
    }

    @Test
    void wpkhAccountGivesTheWalletsAddressesAndOrigins() {
        Descriptor d = Descriptor.parse("wpkh(" + origin(84) + tpub(84) + "/<0;1>/*)", REGTEST);
        HdAccount account = HdAccount.fromMaster(MASTER, AddressKind.P2WPKH, REGTEST);
        assertEquals(2, d.paths());
        assertTrue(d.ranged());
        for (int i = 0; i < 5; i++) {
            assertEquals(account.derive(false, i).script(), d.derive(0, i).script());
            assertEquals(account.derive(true, i).script(), d.derive(1, i).script());
            assertEquals(
                    account.derive(true, i).address(), d.derive(1, i).address().orElseThrow());
        }
        DerivedKey k = d.derive(1, 7).keys().get(0);
        assertEquals(MASTER.getFingerprint(), k.origin().fingerprint());
        assertEquals("84h/1h/0h/1/7", k.origin().toString().substring(9));
        assertArrayEquals(account.key(true, 7).getPubKey(), k.publicKey());
        assertTrue(k.privateKey().isEmpty());
    }

    @Test
    void sortedMultiGivesTheWitnessScriptAndEveryCosignersOrigin() {
        String a = origin(48) + tpub(48) + "/<0;1>/*";
        DeterministicKey other = HDKeyDerivation.createMasterPrivateKey(new byte[32]);
        String b = String.format("[%08x]", other.getFingerprint())
                + other.dropPrivateBytes().serializePubB58(REGTEST) + "/<0;1>/*";
        Descriptor d = Descriptor.parse("wsh(sortedmulti(2," + a + "," + b + "))", REGTEST);
        assertEquals(Descriptor.Type.WSH, d.type());
        assertEquals(new Descriptor.Multisig(2, 2, true), d.multisig().orElseThrow());
        DescriptorOutput out = d.derive(0, 3);
        byte[] ws = out.witnessScript().orElseThrow();
        assertArrayEquals(
                Sha256Hash.hash(ws), java.util.Arrays.copyOfRange(out.script().bytes(), 2, 34));
        assertEquals(2, out.keys().size());
        assertEquals("48h/1h/0h/0/3", out.keys().get(0).origin().toString().substring(9));
        assertEquals("0/3", out.keys().get(1).origin().toString().substring(9));
        assertTrue(out.redeemScript().isEmpty());
        assertTrue(d.derive(0, 3).address().orElseThrow().toString().startsWith("bcrt1q"));
    }

    @Test
    void nestedSegwitGivesRedeemScriptAndTaprootTheInternalKey() {
        Descriptor sh = Descriptor.parse("sh(wpkh(" + origin(49) + tpub(49) + "/0/*))", REGTEST);
        DescriptorOutput o = sh.derive(0, 0);
        assertEquals(Descriptor.Type.SH_WPKH, sh.type());
        assertEquals(22, o.redeemScript().orElseThrow().length);
        assertTrue(o.address().orElseThrow().toString().startsWith("2"));

        Descriptor tr = Descriptor.parse("tr(" + origin(86) + tpub(86) + "/<0;1>/*)", REGTEST);
        HdAccount account = HdAccount.fromMaster(MASTER, AddressKind.P2TR, REGTEST);
        DescriptorOutput t = tr.derive(0, 2);
        assertEquals(account.derive(false, 2).script(), t.script());
        assertArrayEquals(t.keys().get(0).xOnly(), t.internalKey().orElseThrow());
        assertArrayEquals(
                Taproot.outputKey(t.internalKey().orElseThrow(), null),
                java.util.Arrays.copyOfRange(t.script().bytes(), 2, 34));
        assertTrue(t.merkleRoot().isEmpty());
    }

    @Test
    void privateDescriptorExportsPubliclyWithHardenedStepsMovedIntoTheOrigin() {
        String tprv = MASTER.serializePrivB58(REGTEST);
        Descriptor d = Descriptor.parse("wpkh(" + tprv + "/84h/1h/0h/<0;1>/*)", REGTEST);
        assertTrue(d.hasPrivateKeys());
        String pub = d.toString();
        assertFalse(pub.contains("tprv"), pub);
        assertTrue(pub.startsWith("wpkh(" + origin(84) + tpub(84) + "/<0;1>/*)#"), pub);
        Descriptor p = Descriptor.parse(pub, REGTEST);
        assertEquals(d.derive(1, 4).script(), p.derive(1, 4).script());
        assertTrue(d.derive(1, 4).keys().get(0).privateKey().isPresent());
        assertEquals(
                d.toPrivateString(),
                Descriptor.parse(d.toPrivateString(), REGTEST).toPrivateString());
        assertEquals(p, d.publicOnly());
    }

    @Test
    void singleKeyAccountIsTheDescriptorOfAWalletAccount() {
        KeyOrigin o = new KeyOrigin(MASTER.getFingerprint(), account(84).getPath());
        Descriptor d = Descriptor.singleKeyAccount(Descriptor.Type.WPKH, o, account(84), REGTEST);
        assertEquals(
                Descriptor.parse("wpkh(" + origin(84) + tpub(84) + "/<0;1>/*)", REGTEST)
                        .toString(),
                d.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "bad checksum|wpkh(02a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd)#aaaaaaaa|bad descriptor checksum #aaaaaaaa",
                "unknown function|wpkhh(02a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd)|unknown function 'wpkhh'",
                "unsupported function|combo(02a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd)|combo() is not supported",
                "hardened after xpub|wpkh(xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/0h/*)|hardened derivation step 0h after extended public key",
                "hardened wildcard after xpub|wpkh(xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/*h)|hardened derivation step *h after extended public key",
                "mainnet key on regtest|wpkh(xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/*)|is a key for mainnet (xpub/xprv); this descriptor is read for regtest",
                "mainnet WIF on regtest|wpkh(L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1)|WIF private key L4rK1yDtCWek...TrisoyY1 is for mainnet",
                "SLIP 132 key|wpkh(zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs/0/*)|is a SLIP 132 key (zpub)",
                "wrong place|wsh(wpkh(02a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd))|wpkh() is not allowed inside wsh()",
                "threshold|wsh(multi(3,02a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd,0260b2003c386519fc9eadf2b5cf124dd8eea4c4e68d5e154050a9346ea98ce600))|threshold 3 is outside 1..2",
                "uncompressed in segwit|wpkh(04a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd5b8dec5235a0fa8722476c7709c02559e3aa73aa03918ba2d492eea75abea235)|uncompressed public key",
                "mismatched multipath|wsh(multi(1,xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/<0;1>/*,xpub68NZiKmJWnxxS6aaHmn81bvJeTESw724CRDs6HbuccFQN9Ku14VQrADWgqbhhTHBaohPX4CjNLf9fq9MYo6oDaPPLPxSb7gwQN3ih19Zm4Y/<0;1;2>/*))|multipath steps of different lengths",
                "not on curve|pk(02ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff)|is not a point on secp256k1",
                "missing paren|wpkh(02a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd|is not a script expression",
            })
    void badDescriptorGetsAMessageNamingWhatIsWrong(String what, String descriptor, String message) {
        BitcoinNetwork network =
                descriptor.contains("xpub") && what.startsWith("hardened") || what.contains("multipath")
                        ? BitcoinNetwork.MAINNET
                        : REGTEST;
        if (what.equals("SLIP 132 key")
                || what.equals("bad checksum")
                || what.startsWith("unknown")
                || what.startsWith("unsupported")) {
            network = BitcoinNetwork.MAINNET;
        }
        BitcoinNetwork n = network;
        DescriptorException e = assertThrows(DescriptorException.class, () -> Descriptor.parse(descriptor, n));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void checksumIsTheOneBitcoinCoreWrites() {
        // BIP 380's "Valid checksum" vector.
        assertEquals("89f8spxm", DescriptorChecksum.of("raw(deadbeef)"));
        assertEquals(
                "raw(deadbeef)#89f8spxm",
                Descriptor.parse("raw(deadbeef)", REGTEST).toString());
        assertEquals(
                "deadbeef",
                HexFormat.of()
                        .formatHex(Descriptor.parse("raw(deadbeef)#89f8spxm", REGTEST)
                                .derive(0, 0)
                                .script()
                                .bytes()));
    }
}
