package org.blockfilter.wallet.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.LegacyAddress;
import org.bitcoinj.base.ScriptType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every address kind of every network against a wallet of every network: accepted exactly where
 * Bitcoin Core's {@code DecodeDestination} accepts it. Base58 prefixes are shared by testnet,
 * signet and regtest; bech32 prefixes are not (bc, tb, tb, bcrt).
 */
class AddressDecoderTest {
    // The same hash160 / 32-byte programs in every encoding (BIP 173 and BIP 350 examples).
    private static final String MAIN_P2PKH = "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH";
    private static final String MAIN_P2SH = "3CNHUhP3uyB9EUtRLsmvFUmvGdjGdkTxJw";
    private static final String TEST_P2PKH = "mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r";
    private static final String TEST_P2SH = "2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf";

    @ParameterizedTest(name = "{1} on a {0} wallet: {2}")
    @CsvSource({
        // wallet network, address, expected script type or the refusal's key words
        "mainnet, 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH, P2PKH",
        "mainnet, 3CNHUhP3uyB9EUtRLsmvFUmvGdjGdkTxJw, P2SH",
        "mainnet, bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4, P2WPKH",
        "mainnet, bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3, P2WSH",
        "mainnet, bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0, P2TR",
        "mainnet, mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r, base58 address for testnet/signet/regtest (version byte 111)",
        "mainnet, 2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf, base58 address for testnet/signet/regtest (version byte 196)",
        "mainnet, tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx, segwit address for testnet/signet (prefix tb1)",
        "mainnet, bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080, segwit address for regtest (prefix bcrt1)",
        "mainnet, bcrt1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqc8gma6, segwit address for regtest",
        "testnet, mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r, P2PKH",
        "testnet, 2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf, P2SH",
        "testnet, tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx, P2WPKH",
        "testnet, tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7, P2WSH",
        "testnet, tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47zagq, P2TR",
        "testnet, 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH, base58 address for mainnet (version byte 0)",
        "testnet, 3CNHUhP3uyB9EUtRLsmvFUmvGdjGdkTxJw, base58 address for mainnet (version byte 5)",
        "testnet, bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4, segwit address for mainnet (prefix bc1)",
        "testnet, bcrt1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qzf4jry, segwit address for regtest",
        "signet, mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r, P2PKH",
        "signet, 2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf, P2SH",
        "signet, tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx, P2WPKH",
        "signet, tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7, P2WSH",
        "signet, tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47zagq, P2TR",
        "signet, 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH, base58 address for mainnet",
        "signet, bcrt1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqc8gma6, segwit address for regtest",
        "regtest, mxiMrfji71Pn5piJqtGWy9tfkQnKs8wYWe, P2PKH",
        "regtest, mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r, P2PKH",
        "regtest, 2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf, P2SH",
        "regtest, bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080, P2WPKH",
        "regtest, BCRT1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KYGT080, P2WPKH",
        "regtest, bcrt1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qzf4jry, P2WSH",
        "regtest, bcrt1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqc8gma6, P2TR",
        "regtest, 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH, base58 address for mainnet (version byte 0)",
        "regtest, 3CNHUhP3uyB9EUtRLsmvFUmvGdjGdkTxJw, base58 address for mainnet (version byte 5)",
        "regtest, tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx, segwit address for testnet/signet (prefix tb1)",
        "regtest, tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47zagq, segwit address for testnet/signet",
        "regtest, bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0, segwit address for mainnet",
        // Malformed: wrong checksum, wrong checksum kind for the witness version, mixed case, garbage.
        "regtest, mxiMrfji71Pn5piJqtGWy9tfkQnKs8wYWf, neither base58check nor bech32",
        "regtest, bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt081, not valid bech32",
        "regtest, bcrt1qw508D6qejxtdg4y5r3zarvary0c5xw7kygt080, not valid bech32",
        // BIP 350: witness v1+ must use bech32m, v0 must use bech32.
        "mainnet, bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du, not a valid bech32 segwit",
        "testnet, tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47, not a valid bech32m segwit",
        "regtest, hello, neither base58check nor bech32",
    })
    void decodesAsBitcoinCoreDoes(String network, String address, String expected) {
        BitcoinNetwork wallet = BitcoinNetwork.fromString(network).orElseThrow();
        boolean accepted = expected.startsWith("P2") && !expected.contains(" ");
        if (accepted) {
            Address a = AddressDecoder.decode(address, wallet);
            // bitcoinj labels a shared-prefix address with one network of its group (testnet), so the
            // check is that it decodes, names the same script and is accepted again for the wallet.
            assertEquals(a.toString(), AddressDecoder.forNetwork(a, wallet).toString());
            assertEquals(ScriptType.valueOf(expected), a.getOutputScriptType());
            assertEquals(address.toLowerCase(), a.toString().toLowerCase(), "round trip");
        } else {
            KeyFormatException e = assertThrows(KeyFormatException.class, () -> AddressDecoder.decode(address, wallet));
            assertTrue(e.getMessage().contains(expected), e.getMessage());
            assertTrue(e.getMessage().contains(address), "names the address: " + e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({TEST_P2PKH, TEST_P2SH})
    void aTestnetBase58AddressIsTheSameDestinationOnRegtest(String address) {
        Address testnet = LegacyAddress.fromBase58(address, BitcoinNetwork.TESTNET);

        Address regtest = AddressDecoder.forNetwork(testnet, BitcoinNetwork.REGTEST);

        assertEquals(testnet.toString(), regtest.toString());
        assertEquals(testnet.getOutputScriptType(), regtest.getOutputScriptType());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({MAIN_P2PKH, MAIN_P2SH})
    void aMainnetBase58AddressIsNotARegtestOne(String address) {
        Address mainnet = LegacyAddress.fromBase58(address, BitcoinNetwork.MAINNET);

        assertThrows(KeyFormatException.class, () -> AddressDecoder.forNetwork(mainnet, BitcoinNetwork.REGTEST));
    }
}
