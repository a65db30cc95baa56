package org.blockfilter.wallet.testchain;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.store.Sealing;

/** Wallets for tests: a fixed mnemonic, a cheap scrypt cost, regtest. */
public final class TestWallets {
    public static final List<String> MNEMONIC = List.of(
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".split(" "));
    public static final char[] PASSPHRASE = "correct horse".toCharArray();

    private TestWallets() {}

    public static LightWallet create(Path dir) {
        return create(dir, LightWallet.Birthday.ofHeight(0));
    }

    public static LightWallet create(Path dir, LightWallet.Birthday birthday) {
        return create(dir, birthday, Sealing.SECRET_ONLY);
    }

    /** A wallet whose whole file is sealed ({@code --seal all}) with {@link #PASSPHRASE}. */
    public static LightWallet createSealed(Path dir) {
        return create(dir, LightWallet.Birthday.ofHeight(0), Sealing.ALL);
    }

    /** A P2WPKH-only wallet of {@code mnemonic} in {@code dir/name.json}, born at genesis, gap limit 20. */
    public static LightWallet p2wpkh(Path dir, String name, List<String> mnemonic) {
        return NewWallet.create(
                dir.resolve(name + ".json"),
                mnemonic,
                PASSPHRASE,
                EnumSet.of(AddressKind.P2WPKH),
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withScryptN(1 << 10));
    }

    public static LightWallet create(Path dir, LightWallet.Birthday birthday, Sealing sealing) {
        return NewWallet.create(
                dir.resolve("wallet.json"),
                MNEMONIC,
                PASSPHRASE,
                EnumSet.of(AddressKind.P2WPKH, AddressKind.P2PKH, AddressKind.P2TR),
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(birthday)
                        .withSealing(sealing)
                        .withScryptN(1 << 10));
    }
}
