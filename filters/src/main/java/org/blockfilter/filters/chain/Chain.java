package org.blockfilter.filters.chain;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Sha256Hash;

/**
 * The Bitcoin networks a light client can run on, with what it must know of each before it talks
 * to anyone: names, message start, genesis header, default ports, address prefixes, the
 * proof-of-work limit and the difficulty rules, and the service bits a filter client needs.
 *
 * <p>Where each value comes from: Bitcoin Core's {@code src/kernel/chainparams.cpp} (message start,
 * default P2P port, genesis fields and the hashes Core asserts, {@code powLimit}, the difficulty
 * flags {@code fPowAllowMinDifficultyBlocks}, {@code enforce_BIP94} and {@code fPowNoRetargeting},
 * base58 prefixes and bech32 HRPs; bitcoin/bitcoin at 284c42a3ceb98587895935139984c52e9958005d),
 * {@code src/chainparamsbase.cpp} (RPC ports; 5bf9524b949ef0285b267921cb61c73e07f4f6d4) and
 * {@code src/util/chaintype.cpp} (the names {@code getblockchaininfo} reports); testnet4 also from
 * BIP 94's text (genesis, message start, port 48333). Signet here is the default signet: its message
 * start is the first four bytes of the double SHA-256 of its block challenge, and a signet with
 * another challenge is another network this type does not describe. {@code ChainTest} checks every
 * value against those sources and against bitcoinj where bitcoinj has the network.
 *
 * <p>Immutable and thread-safe; no accessor returns null.
 */
public enum Chain {
    /** Bitcoin's main network. */
    MAINNET(
            "main",
            List.of("mainnet", "main"),
            0xf9beb4d9L,
            Genesis.header(1, Genesis.MERKLE_SATOSHI, 1231006505L, 0x1d00ffffL, 2083236893L),
            "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f",
            8333,
            8332,
            "bc",
            0,
            5,
            BitcoinNetwork.MAINNET,
            limit("00000000ffffffffffffffffffffffffffffffffffffffffffffffffffffffff")),
    /** The third test network, with its 20-minute minimum-difficulty rule. */
    TESTNET3(
            "test",
            List.of("testnet3", "testnet", "test"),
            0x0b110907L,
            Genesis.header(1, Genesis.MERKLE_SATOSHI, 1296688602L, 0x1d00ffffL, 414098458L),
            "000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943",
            18333,
            18332,
            "tb",
            111,
            196,
            BitcoinNetwork.TESTNET,
            limit("00000000ffffffffffffffffffffffffffffffffffffffffffffffffffffffff")),
    /** BIP 94. Shares testnet3's address encoding (bitcoinj 0.17 has no testnet4 of its own). */
    TESTNET4(
            "testnet4",
            List.of("testnet4"),
            0x1c163f28L,
            Genesis.header(
                    1,
                    "7aa0a7ae1e223414cb807e40cd57e667b718e42aaf9306db9102fe28912b7b4e",
                    1714777860L,
                    0x1d00ffffL,
                    393743547L),
            "00000000da84f2bafbbc53dee25a72ae507ff4914b867c565be350b0da8bf043",
            48333,
            48332,
            "tb",
            111,
            196,
            BitcoinNetwork.TESTNET,
            limit("00000000ffffffffffffffffffffffffffffffffffffffffffffffffffffffff")),
    /** The default signet (BIP 325). Its block signatures are not in the header: see {@link DifficultyRules}. */
    SIGNET(
            "signet",
            List.of("signet"),
            0x0a03cf40L,
            Genesis.header(1, Genesis.MERKLE_SATOSHI, 1598918400L, 0x1e0377aeL, 52613770L),
            "00000008819873e925422c1ff0f99f7cc9bbb232af63a077a480a3633bee1ef6",
            38333,
            38332,
            "tb",
            111,
            196,
            BitcoinNetwork.SIGNET,
            limit("00000377ae000000000000000000000000000000000000000000000000000000")),
    /** The local regression-test network: minimum difficulty, no retargeting, blocks mined on demand. */
    REGTEST(
            "regtest",
            List.of("regtest"),
            0xfabfb5daL,
            Genesis.header(1, Genesis.MERKLE_SATOSHI, 1296688602L, 0x207fffffL, 2L),
            "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206",
            18444,
            18443,
            "bcrt",
            111,
            196,
            BitcoinNetwork.REGTEST,
            limit("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"));

    /** NODE_NETWORK: serves every block. */
    public static final long NODE_NETWORK = 1L;
    /** NODE_WITNESS (BIP 144): serves witnesses. */
    public static final long NODE_WITNESS = 1L << 3;
    /** NODE_COMPACT_FILTERS (BIP 157): serves basic filters and their headers. */
    public static final long NODE_COMPACT_FILTERS = 1L << 6;
    /** NODE_NETWORK_LIMITED (BIP 159): serves at least the last 288 blocks. */
    public static final long NODE_NETWORK_LIMITED = 1L << 10;
    /** NODE_P2P_V2 (BIP 324): accepts the v2 encrypted transport. */
    public static final long NODE_P2P_V2 = 1L << 11;
    /**
     * The default signet's block challenge (Core's {@code SigNetParams}), hex; a node on a signet
     * with another challenge reports the same chain name and genesis but uses another message start.
     */
    public static final String DEFAULT_SIGNET_CHALLENGE =
            "512103ad5e0edad18cb1f0fc0d28a3d4f1f3e445640337489abb10404f2d1e086be430210359ef5021964fe22d6f8e05b2463c9540ce96883fe3b278760f048f5189f2e6c452ae";
    /** What a filter client needs of a peer: filters, and blocks with their witnesses. */
    public static final long SERVICES_NEEDED = NODE_WITNESS | NODE_COMPACT_FILTERS;

    private final String coreName;
    private final List<String> cliNames;
    private final long magic;
    private final byte[] genesisHeader;
    private final Sha256Hash genesisHash;
    private final int p2pPort;
    private final int rpcPort;
    private final String bech32Hrp;
    private final int p2pkhPrefix;
    private final int p2shPrefix;
    private final BitcoinNetwork addressNetwork;
    private final BigInteger powLimit;

    Chain(
            String coreName,
            List<String> cliNames,
            long magic,
            byte[] genesisHeader,
            String genesisHash,
            int p2pPort,
            int rpcPort,
            String bech32Hrp,
            int p2pkhPrefix,
            int p2shPrefix,
            BitcoinNetwork addressNetwork,
            BigInteger powLimit) {
        this.coreName = coreName;
        this.cliNames = cliNames;
        this.magic = magic;
        this.genesisHeader = genesisHeader;
        this.genesisHash = Sha256Hash.wrap(genesisHash);
        this.p2pPort = p2pPort;
        this.rpcPort = rpcPort;
        this.bech32Hrp = bech32Hrp;
        this.p2pkhPrefix = p2pkhPrefix;
        this.p2shPrefix = p2shPrefix;
        this.addressNetwork = addressNetwork;
        this.powLimit = powLimit;
    }

    /** The {@code chain} field of Bitcoin Core's {@code getblockchaininfo}: main, test, testnet4, signet, regtest. */
    public String coreName() {
        return coreName;
    }

    /** The name a command line takes and a wallet file records: mainnet, testnet3, testnet4, signet, regtest. */
    public String cliName() {
        return cliNames.get(0);
    }

    /** Every name {@link #fromName} accepts for this network, {@link #cliName()} first. */
    public List<String> names() {
        return cliNames;
    }

    /** The message start (network magic), big-endian as Core lists its four bytes. */
    public long magic() {
        return magic;
    }

    /** The four message-start bytes in wire order. */
    public byte[] magicBytes() {
        return new byte[] {(byte) (magic >>> 24), (byte) (magic >>> 16), (byte) (magic >>> 8), (byte) magic};
    }

    /** The 80-byte genesis block header. */
    public byte[] genesisHeader() {
        return genesisHeader.clone();
    }

    /** The genesis block hash Bitcoin Core asserts, in display order. */
    public Sha256Hash genesisHash() {
        return genesisHash;
    }

    /** The genesis as a checkpoint a header chain can start from (chain work of one block). */
    public HeaderCheckpoint genesisCheckpoint() {
        long bits = HeaderFields.bits(genesisHeader);
        return new HeaderCheckpoint(0, genesisHeader, DifficultyRules.work(bits));
    }

    /** Bitcoin Core's default P2P port. */
    public int defaultP2pPort() {
        return p2pPort;
    }

    /** Bitcoin Core's default JSON-RPC port. */
    public int defaultRpcPort() {
        return rpcPort;
    }

    /** The human-readable part of bech32/bech32m addresses (BIP 173). */
    public String bech32Hrp() {
        return bech32Hrp;
    }

    /** The base58 version byte of P2PKH addresses. */
    public int p2pkhPrefix() {
        return p2pkhPrefix;
    }

    /** The base58 version byte of P2SH addresses. */
    public int p2shPrefix() {
        return p2shPrefix;
    }

    /**
     * The bitcoinj network whose address encoding (HRP, base58 prefixes, BIP 32 version bytes) this
     * one shares. TESTNET4 maps to bitcoinj's TESTNET: same encoding, different chain; never use
     * it for the magic, genesis or checkpoints.
     */
    public BitcoinNetwork addressNetwork() {
        return addressNetwork;
    }

    /** The easiest target a block may claim ({@code powLimit}). */
    public BigInteger powLimit() {
        return powLimit;
    }

    /** The rules that say which bits each header must carry on this network. */
    public DifficultyRules difficultyRules() {
        return DifficultyRules.of(this);
    }

    /**
     * The network a command-line or wallet-file name denotes (case-insensitive): see {@link #names()}.
     *
     * @throws IllegalArgumentException naming the accepted names
     */
    public static Chain fromName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(c -> c.cliNames.contains(n))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown network '" + name + "'; use one of " + String.join(", ", allCliNames())));
    }

    /**
     * The network a bitcoinj {@link BitcoinNetwork} is: bitcoinj's TESTNET is testnet3 (bitcoinj
     * 0.17 has no testnet4, whose wallets therefore cannot be named by a bitcoinj network).
     */
    public static Chain ofBitcoinj(BitcoinNetwork network) {
        return switch (network) {
            case MAINNET -> MAINNET;
            case TESTNET -> TESTNET3;
            case SIGNET -> SIGNET;
            case REGTEST -> REGTEST;
        };
    }

    /** The network of a {@code getblockchaininfo} {@code chain} field, if it is one of ours. */
    public static Optional<Chain> fromCoreName(String coreName) {
        return Arrays.stream(values()).filter(c -> c.coreName.equals(coreName)).findFirst();
    }

    /**
     * The network a node's {@code getblockchaininfo} {@code chain} field names: Bitcoin Core's
     * names ({@link #coreName()}) or btcd's, which are our canonical names ({@link #cliName()}:
     * mainnet, testnet3, testnet4, signet, regtest).
     */
    public static Optional<Chain> fromNodeName(String name) {
        return fromCoreName(name)
                .or(() -> Arrays.stream(values())
                        .filter(c -> c.cliName().equals(name))
                        .findFirst());
    }

    /** The canonical command-line names, for messages and help. */
    public static List<String> allCliNames() {
        return Stream.of(values()).map(Chain::cliName).collect(Collectors.toUnmodifiableList());
    }

    private static BigInteger limit(String hex) {
        return new BigInteger(hex, 16);
    }

    /** Core's {@code CreateGenesisBlock}, header only (a holder, so the enum constants may use it). */
    private static final class Genesis {
        /** The Merkle root of the coinbase every genesis but testnet4's has (Core asserts it), display order. */
        static final String MERKLE_SATOSHI = "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b";

        /** Version, no previous block, the coinbase's Merkle root, time, bits, nonce. */
        static byte[] header(int version, String merkleRoot, long time, long bits, long nonce) {
            byte[] h = new byte[HeaderCheckpoint.HEADER_BYTES];
            HeaderFields.putLe32(h, 0, version);
            System.arraycopy(Sha256Hash.wrap(merkleRoot).getReversedBytes(), 0, h, 36, 32);
            HeaderFields.putLe32(h, 68, time);
            HeaderFields.putLe32(h, 72, bits);
            HeaderFields.putLe32(h, 76, nonce);
            return h;
        }
    }
}
