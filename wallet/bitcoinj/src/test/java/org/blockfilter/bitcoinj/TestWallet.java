package org.blockfilter.bitcoinj;

import java.time.Instant;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.wallet.DeterministicKeyChain;
import org.bitcoinj.wallet.DeterministicSeed;
import org.bitcoinj.wallet.KeyChainGroup;
import org.bitcoinj.wallet.KeyChainGroupStructure;
import org.bitcoinj.wallet.Wallet;

/** bitcoinj regtest wallets of one mnemonic with a P2PKH and a P2WPKH chain (BIP 43 paths), and their addresses. */
final class TestWallet {
    static final List<String> MNEMONIC = List.of(
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".split(" "));
    /** Regtest's genesis time: no key is older than a block, so bitcoinj skips nothing. */
    static final Instant BIRTH = Instant.ofEpochSecond(1_296_688_602L);

    private TestWallet() {}

    /** A new wallet with both chains, P2WPKH the default for fresh addresses. */
    static Wallet create() {
        DeterministicSeed seed = DeterministicSeed.ofMnemonic(MNEMONIC, "", BIRTH);
        KeyChainGroup group = KeyChainGroup.builder(BitcoinNetwork.REGTEST, KeyChainGroupStructure.BIP43)
                .fromSeed(seed, ScriptType.P2PKH)
                .fromSeed(seed, ScriptType.P2WPKH)
                .build();
        return new Wallet(BitcoinNetwork.REGTEST, group);
    }

    /**
     * Receive address {@code index} of the {@code type} chain, derived in a separate wallet of the same mnemonic (so
     * the wallet under test does not learn the key by being asked).
     */
    static Address receiving(ScriptType type, int index) {
        return key(type, false, index).toAddress(type, BitcoinNetwork.REGTEST);
    }

    static DeterministicKey key(ScriptType type, boolean change, int index) {
        DeterministicKeyChain chain = create().getActiveKeyChains().stream()
                .filter(c -> c.getOutputScriptType() == type)
                .findFirst()
                .orElseThrow();
        return chain.getKeyByPath(
                chain.getAccountPath().extend(change ? ChildNumber.ONE : ChildNumber.ZERO, new ChildNumber(index)),
                true);
    }
}
