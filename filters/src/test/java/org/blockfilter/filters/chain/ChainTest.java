package org.blockfilter.filters.chain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.NetworkParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each network's parameters against the published values, written out here as the sources give
 * them: Bitcoin Core's src/kernel/chainparams.cpp (bitcoin/bitcoin
 * 284c42a3ceb98587895935139984c52e9958005d: pchMessageStart, nDefaultPort, the genesis hashes in
 * its asserts, powLimit, base58Prefixes, bech32_hrp, the default signet challenge),
 * src/chainparamsbase.cpp (5bf9524b949ef0285b267921cb61c73e07f4f6d4: RPC ports) and BIP 94's text
 * (bitcoin/bips bip-0094.mediawiki: testnet4's genesis block hex, message start, port).
 */
class ChainTest {
    private static final HexFormat HEX = HexFormat.of();

    /** BIP 94, "Genesis Block": the block hex; its first 80 bytes are the header. */
    private static final String BIP94_GENESIS_BLOCK =
            "0100000000000000000000000000000000000000000000000000000000000000000000004e7b2b9128fe0291db0693af2ae418b767e657cd407e80cb1434221eaea7a07a046f3566ffff001dbb0c78170101000000010000000000000000000000000000000000000000000000000000000000000000ffffffff5504ffff001d01044c4c30332f4d61792f323032342030303030303030303030303030303030303030303165626435386332343439373062336161396437383362623030313031316662653865613865393865303065ffffffff0100f2052a010000002321000000000000000000000000000000000000000000000000000000000000000000ac00000000";

    /** Core's SigNetParams: the default signet's block challenge. */
    private static final String SIGNET_CHALLENGE =
            "512103ad5e0edad18cb1f0fc0d28a3d4f1f3e445640337489abb10404f2d1e086be430210359ef5021964fe22d6f8e05b2463c9540ce96883fe3b278760f048f5189f2e6c452ae";

    private record Published(
            String coreName,
            String magic,
            String genesis,
            int p2p,
            int rpc,
            String hrp,
            int p2pkh,
            int p2sh,
            String powLimit) {}

    private static Published published(Chain c) {
        return switch (c) {
            case MAINNET ->
                new Published(
                        "main",
                        "f9beb4d9",
                        "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f",
                        8333,
                        8332,
                        "bc",
                        0,
                        5,
                        "00000000ffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
            case TESTNET3 ->
                new Published(
                        "test",
                        "0b110907",
                        "000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943",
                        18333,
                        18332,
                        "tb",
                        111,
                        196,
                        "00000000ffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
            case TESTNET4 ->
                new Published(
                        "testnet4",
                        "1c163f28",
                        "00000000da84f2bafbbc53dee25a72ae507ff4914b867c565be350b0da8bf043",
                        48333,
                        48332,
                        "tb",
                        111,
                        196,
                        "00000000ffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
            case SIGNET ->
                new Published(
                        "signet",
                        "0a03cf40",
                        "00000008819873e925422c1ff0f99f7cc9bbb232af63a077a480a3633bee1ef6",
                        38333,
                        38332,
                        "tb",
                        111,
                        196,
                        "00000377ae000000000000000000000000000000000000000000000000000000");
            case REGTEST ->
                new Published(
                        "regtest",
                        "fabfb5da",
                        "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206",
                        18444,
                        18443,
                        "bcrt",
                        111,
                        196,
                        "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
        };
    }

    @ParameterizedTest
    @EnumSource(Chain.class)
    void parametersAreThePublishedOnes(Chain c) {
        Published p = published(c);
        assertEquals(p.coreName(), c.coreName());
        assertEquals(p.magic(), HEX.formatHex(c.magicBytes()));
        assertEquals(Long.parseLong(p.magic(), 16), c.magic());
        assertEquals(p.genesis(), c.genesisHash().toString());
        assertEquals(p.p2p(), c.defaultP2pPort());
        assertEquals(p.rpc(), c.defaultRpcPort());
        assertEquals(p.hrp(), c.bech32Hrp());
        assertEquals(p.p2pkh(), c.p2pkhPrefix());
        assertEquals(p.p2sh(), c.p2shPrefix());
        assertEquals(new BigInteger(p.powLimit(), 16), c.powLimit());
    }

    @ParameterizedTest
    @EnumSource(Chain.class)
    void genesisHeaderHashesToTheGenesisHash(Chain c) {
        byte[] header = c.genesisHeader();
        assertEquals(80, header.length);
        assertEquals(c.genesisHash(), Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header)));
        assertEquals(c.genesisHash(), c.genesisCheckpoint().hash());
        assertEquals(0, c.genesisCheckpoint().height());
    }

    @Test
    void testnet4GenesisIsTheHeaderOfBip94sBlock() {
        assertArrayEquals(Arrays.copyOf(HEX.parseHex(BIP94_GENESIS_BLOCK), 80), Chain.TESTNET4.genesisHeader());
    }

    @Test
    void signetMagicIsTheStartOfItsChallengesHash() {
        byte[] challenge = HEX.parseHex(SIGNET_CHALLENGE);
        byte[] serialized = new byte[challenge.length + 1];
        serialized[0] = (byte) challenge.length; // CompactSize of a 71-byte vector
        System.arraycopy(challenge, 0, serialized, 1, challenge.length);
        byte[] hash = Sha256Hash.hashTwice(serialized);
        assertArrayEquals(Arrays.copyOf(hash, 4), Chain.SIGNET.magicBytes());
        assertEquals(SIGNET_CHALLENGE, Chain.DEFAULT_SIGNET_CHALLENGE);
    }

    /** bitcoinj has every network but testnet4: its genesis, magic, port and address encoding agree with ours. */
    @ParameterizedTest
    @EnumSource(
            value = Chain.class,
            names = {"MAINNET", "TESTNET3", "SIGNET", "REGTEST"})
    void agreesWithBitcoinj(Chain c) {
        NetworkParameters params = NetworkParameters.of(c.addressNetwork());
        byte[] theirs = Arrays.copyOf(params.getGenesisBlock().serialize(), 80);
        assertArrayEquals(theirs, c.genesisHeader());
        assertEquals(params.getPacketMagic() & 0xffffffffL, c.magic()); // bitcoinj: an int
        assertEquals(params.getPort(), c.defaultP2pPort());
        assertEquals(params.getAddressHeader(), c.p2pkhPrefix());
        assertEquals(params.getP2SHHeader(), c.p2shPrefix());
        assertEquals(params.getSegwitAddressHrp(), c.bech32Hrp());
    }

    @Test
    void bitcoinjsNetworksAreTheirChains() {
        for (Chain c : new Chain[] {Chain.MAINNET, Chain.TESTNET3, Chain.SIGNET, Chain.REGTEST}) {
            assertEquals(c, Chain.ofBitcoinj(c.addressNetwork()));
        }
    }

    @Test
    void testnet4SharesTestnetsAddressEncodingOnly() {
        assertEquals(BitcoinNetwork.TESTNET, Chain.TESTNET4.addressNetwork());
        NetworkParameters testnet = NetworkParameters.of(BitcoinNetwork.TESTNET);
        assertTrue(testnet.getPacketMagic() != Chain.TESTNET4.magic());
        assertTrue(!testnet.getGenesisBlock().getHash().equals(Chain.TESTNET4.genesisHash()));
    }

    /** Core's pow_tests sanity_check_chainparams: genesis bits within the limit, no overflow in the retarget. */
    @ParameterizedTest
    @EnumSource(Chain.class)
    void genesisBitsAreThePowLimitAndRetargetsCannotOverflow(Chain c) {
        long bits = HeaderFields.bits(c.genesisHeader());
        assertEquals(DifficultyRules.compact(c.powLimit()), bits);
        assertEquals(0, DifficultyRules.TARGET_TIMESPAN % DifficultyRules.TARGET_SPACING);
        if (c != Chain.REGTEST) {
            BigInteger max = BigInteger.ONE
                    .shiftLeft(256)
                    .subtract(BigInteger.ONE)
                    .divide(BigInteger.valueOf(DifficultyRules.TARGET_TIMESPAN * 4));
            assertTrue(c.powLimit().compareTo(max) < 0);
        }
    }

    @Test
    void namesParseAsTheCommandLineAndCoreWriteThem() {
        assertEquals(Chain.TESTNET3, Chain.fromName("testnet"));
        assertEquals(Chain.TESTNET3, Chain.fromName("testnet3"));
        assertEquals(Chain.TESTNET4, Chain.fromName("TESTNET4"));
        assertEquals(Chain.MAINNET, Chain.fromName("mainnet"));
        assertEquals("testnet3", Chain.TESTNET3.cliName());
        assertEquals(Optional.of(Chain.TESTNET3), Chain.fromCoreName("test"));
        assertEquals(Optional.of(Chain.TESTNET4), Chain.fromCoreName("testnet4"));
        assertEquals(Optional.empty(), Chain.fromCoreName("testnet3"));
        assertEquals(Optional.of(Chain.TESTNET3), Chain.fromNodeName("testnet3")); // btcd's name
        assertEquals(Optional.of(Chain.MAINNET), Chain.fromNodeName("mainnet"));
        assertEquals(Optional.of(Chain.MAINNET), Chain.fromNodeName("main"));
        assertEquals(Optional.empty(), Chain.fromNodeName("testnet"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Chain.fromName("testnet5"));
        assertEquals(
                "unknown network 'testnet5'; use one of mainnet, testnet3, testnet4, signet, regtest", e.getMessage());
    }

    @Test
    void serviceBitsAreBip157s() {
        assertEquals(1L, Chain.NODE_NETWORK);
        assertEquals(8L, Chain.NODE_WITNESS);
        assertEquals(64L, Chain.NODE_COMPACT_FILTERS);
        assertEquals(1024L, Chain.NODE_NETWORK_LIMITED);
    }
}
