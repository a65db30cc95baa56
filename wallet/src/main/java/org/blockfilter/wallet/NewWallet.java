package org.blockfilter.wallet;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.HeaderCheckpoint;
import org.blockfilter.wallet.LightWallet.Birthday;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.store.FileKey;
import org.blockfilter.wallet.store.SealedSecret;
import org.blockfilter.wallet.store.Sealing;

/**
 * Creates wallet files: from a BIP 39 mnemonic (new or restored, with an optional BIP 39
 * passphrase), or watch-only from an xpub or from descriptors. Every wallet is its accounts'
 * descriptors ({@link HdAccount}); a wallet with keys also holds its mnemonic and BIP 39
 * passphrase, sealed. Each written file's header chain starts at the network's shipped
 * checkpoint for the birthday ({@link ChainStart#shipped}) unless checkpoints are given. Stateless.
 */
public final class NewWallet {
    private NewWallet() {}

    /**
     * What the sealed secret holds: the mnemonic's words (space separated) and, when not empty, a
     * newline and the BIP 39 passphrase. A secret without the newline (every wallet written before
     * the passphrase existed) has the empty passphrase.
     */
    public record Secret(List<String> mnemonic, String bip39Passphrase) {
        byte[] encode() {
            String words = String.join(" ", mnemonic);
            return (bip39Passphrase.isEmpty() ? words : words + "\n" + bip39Passphrase)
                    .getBytes(StandardCharsets.UTF_8);
        }

        static Secret decode(byte[] bytes) {
            String s = new String(bytes, StandardCharsets.UTF_8);
            int nl = s.indexOf('\n');
            String words = nl < 0 ? s : s.substring(0, nl);
            return new Secret(List.of(words.split(" ")), nl < 0 ? "" : s.substring(nl + 1));
        }
    }

    /** A wallet from a mnemonic, its mnemonic sealed with {@code passphrase}, the rest plain ({@link Sealing#SECRET_ONLY}). */
    public static LightWallet create(
            Path file,
            Chain chain,
            List<String> mnemonic,
            char[] passphrase,
            Collection<AddressKind> kinds,
            int gapLimit,
            Birthday birthday,
            int scryptN) {
        return create(file, chain, mnemonic, passphrase, kinds, gapLimit, birthday, scryptN, Sealing.SECRET_ONLY);
    }

    /** A wallet from a mnemonic without BIP 39 passphrase, sealed as {@code sealing} says (ALL or SECRET_ONLY). */
    public static LightWallet create(
            Path file,
            Chain chain,
            List<String> mnemonic,
            char[] passphrase,
            Collection<AddressKind> kinds,
            int gapLimit,
            Birthday birthday,
            int scryptN,
            Sealing sealing) {
        return create(
                file,
                chain,
                mnemonic,
                passphrase,
                kinds,
                gapLimit,
                birthday,
                scryptN,
                sealing,
                ChainStart.shipped(chain));
    }

    /** {@link #create} whose header chain starts at the highest of {@code checkpoints} at or below the birthday. */
    public static LightWallet create(
            Path file,
            Chain chain,
            List<String> mnemonic,
            char[] passphrase,
            Collection<AddressKind> kinds,
            int gapLimit,
            Birthday birthday,
            int scryptN,
            Sealing sealing,
            List<HeaderCheckpoint> checkpoints) {
        return create(
                file,
                chain,
                new Secret(mnemonic, ""),
                passphrase,
                kinds,
                gapLimit,
                birthday,
                scryptN,
                sealing,
                checkpoints);
    }

    /**
     * A wallet from a mnemonic and its BIP 39 passphrase ({@code secret}), both sealed with {@code
     * passphrase} (the file's passphrase, which has nothing to do with the BIP 39 one); the whole
     * file too for {@link Sealing#ALL}.
     */
    public static LightWallet create(
            Path file,
            Chain chain,
            Secret secret,
            char[] passphrase,
            Collection<AddressKind> kinds,
            int gapLimit,
            Birthday birthday,
            int scryptN,
            Sealing sealing,
            List<HeaderCheckpoint> checkpoints) {
        if (sealing == Sealing.NONE) {
            throw new IllegalArgumentException(
                    "a wallet with keys always seals its mnemonic: use --seal all or --seal secret-only");
        }
        if (passphrase.length == 0) {
            throw new IllegalArgumentException("a passphrase is required to seal the wallet's keys");
        }
        WalletKeys keys = WalletKeys.fromMnemonic(
                secret.mnemonic(), secret.bip39Passphrase(), chain.addressNetwork(), gapLimit, kinds);
        byte[] plain = secret.encode();
        SealedSecret sealed = SealedSecret.seal(plain, passphrase, scryptN);
        java.util.Arrays.fill(plain, (byte) 0);
        return LightWallet.create(
                file,
                chain,
                LightWallet.publicOnly(keys),
                sealed,
                birthday,
                sealing == Sealing.ALL ? FileKey.create(passphrase, scryptN) : null,
                checkpoints);
    }

    /** A watch-only wallet for one account's extended public key, not sealed ({@link Sealing#NONE}). */
    public static LightWallet watchOnly(
            Path file, Chain chain, String xpub, AddressKind kind, int gapLimit, Birthday birthday) {
        return watchOnly(file, chain, xpub, kind, gapLimit, birthday, Sealing.NONE, null, SealedSecret.DEFAULT_N);
    }

    /** A watch-only wallet for an xpub sealed as {@code sealing} says: ALL with {@code passphrase}, or NONE. */
    public static LightWallet watchOnly(
            Path file,
            Chain chain,
            String xpub,
            AddressKind kind,
            int gapLimit,
            Birthday birthday,
            Sealing sealing,
            char[] passphrase,
            int scryptN) {
        return watchOnly(
                file, chain, xpub, kind, gapLimit, birthday, sealing, passphrase, scryptN, ChainStart.shipped(chain));
    }

    /** {@link #watchOnly} whose header chain starts at the highest of {@code checkpoints} at or below the birthday. */
    public static LightWallet watchOnly(
            Path file,
            Chain chain,
            String xpub,
            AddressKind kind,
            int gapLimit,
            Birthday birthday,
            Sealing sealing,
            char[] passphrase,
            int scryptN,
            List<HeaderCheckpoint> checkpoints) {
        return watchOnly(
                file,
                chain,
                List.of(HdAccount.watchOnly(xpub, kind, chain.addressNetwork())),
                gapLimit,
                birthday,
                sealing,
                passphrase,
                scryptN,
                checkpoints);
    }

    /**
     * A watch-only wallet of {@code accounts} (e.g. {@link HdAccount#fromDescriptors}, at most one
     * per kind), sealed ALL with {@code passphrase} or NONE.
     */
    public static LightWallet watchOnly(
            Path file,
            Chain chain,
            List<HdAccount> accounts,
            int gapLimit,
            Birthday birthday,
            Sealing sealing,
            char[] passphrase,
            int scryptN,
            List<HeaderCheckpoint> checkpoints) {
        if (sealing == Sealing.SECRET_ONLY) {
            throw new IllegalArgumentException(
                    "a watch-only wallet has no secret to seal: use --seal all or --seal none");
        }
        WalletKeys keys = WalletKeys.of(
                chain.addressNetwork(),
                gapLimit,
                accounts.stream().map(HdAccount::publicOnly).toList());
        return LightWallet.create(
                file,
                chain,
                keys,
                null,
                birthday,
                sealing == Sealing.ALL ? FileKey.create(passphrase, scryptN) : null,
                checkpoints);
    }
}
