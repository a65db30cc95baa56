package org.blockfilter.wallet;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
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
 * passphrase), or watch-only from accounts (an xpub's or descriptors'). Every wallet is its accounts'
 * descriptors ({@link HdAccount}); a wallet with keys also holds its mnemonic and BIP 39
 * passphrase, sealed. What else a new wallet needs (network, gap limit, birthday, sealing, scrypt
 * cost, header-chain start, BIP 39 passphrase) is one {@link Options} value. Stateless.
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

    /**
     * How a wallet is made, beside its keys. {@link #of} gives the defaults; each {@code withX}
     * returns a copy with one field changed. Immutable; no field is null.
     *
     * @param chain           the network
     * @param gapLimit        unused addresses watched past the last used one, at least 1
     * @param birthday        where the first sync starts
     * @param sealing         what the file's passphrase seals ({@link Sealing#ALL} or {@link
     *                        Sealing#SECRET_ONLY} for a wallet with keys; ALL or NONE watch-only)
     * @param scryptN         the scrypt cost of the sealing
     * @param checkpoints     the header chain starts at the highest of these at or below the birthday
     * @param bip39Passphrase the BIP 39 passphrase of the mnemonic ("" for none); sealed with it
     */
    public record Options(
            Chain chain,
            int gapLimit,
            Birthday birthday,
            Sealing sealing,
            int scryptN,
            List<HeaderCheckpoint> checkpoints,
            String bip39Passphrase) {
        public Options {
            Objects.requireNonNull(chain, "chain");
            Objects.requireNonNull(birthday, "birthday");
            Objects.requireNonNull(sealing, "sealing");
            Objects.requireNonNull(bip39Passphrase, "bip39Passphrase");
            checkpoints = List.copyOf(checkpoints);
            if (gapLimit < 1) {
                throw new IllegalArgumentException("gap limit must be at least 1, got " + gapLimit);
            }
        }

        /**
         * The defaults for {@code chain}: the default gap limit, born at the tip the first sync
         * sees, {@link Sealing#SECRET_ONLY}, {@link SealedSecret#DEFAULT_N}, the network's shipped
         * checkpoints ({@link ChainStart#shipped}), no BIP 39 passphrase.
         */
        public static Options of(Chain chain) {
            return new Options(
                    chain,
                    WalletKeys.DEFAULT_GAP_LIMIT,
                    Birthday.atTip(),
                    Sealing.SECRET_ONLY,
                    SealedSecret.DEFAULT_N,
                    ChainStart.shipped(chain),
                    "");
        }

        /** These options with {@code gapLimit} unused addresses derived ahead on each chain. */
        public Options withGapLimit(int gapLimit) {
            return new Options(chain, gapLimit, birthday, sealing, scryptN, checkpoints, bip39Passphrase);
        }

        /** These options with the wallet born at {@code birthday}: its first sync scans from there. */
        public Options withBirthday(Birthday birthday) {
            return new Options(chain, gapLimit, birthday, sealing, scryptN, checkpoints, bip39Passphrase);
        }

        /** These options with the file sealed as {@code sealing} says (watch-only wallets need {@link Sealing#NONE}). */
        public Options withSealing(Sealing sealing) {
            return new Options(chain, gapLimit, birthday, sealing, scryptN, checkpoints, bip39Passphrase);
        }

        /** These options with scrypt cost {@code scryptN} for sealing the secret (a power of two). */
        public Options withScryptN(int scryptN) {
            return new Options(chain, gapLimit, birthday, sealing, scryptN, checkpoints, bip39Passphrase);
        }

        /** These options with header sync starting from {@code checkpoints} instead of the shipped ones. */
        public Options withCheckpoints(List<HeaderCheckpoint> checkpoints) {
            return new Options(chain, gapLimit, birthday, sealing, scryptN, checkpoints, bip39Passphrase);
        }

        /** These options with the BIP 39 passphrase (the "25th word") mixed into the seed. */
        public Options withBip39Passphrase(String bip39Passphrase) {
            return new Options(chain, gapLimit, birthday, sealing, scryptN, checkpoints, bip39Passphrase);
        }
    }

    /**
     * A wallet of {@code kinds} from a mnemonic and the options' BIP 39 passphrase, both sealed with
     * {@code passphrase} (the file's passphrase, which has nothing to do with the BIP 39 one); the
     * whole file too for {@link Sealing#ALL}.
     */
    public static LightWallet create(
            Path file, List<String> mnemonic, char[] passphrase, Collection<AddressKind> kinds, Options options) {
        if (options.sealing() == Sealing.NONE) {
            throw new IllegalArgumentException(
                    "a wallet with keys always seals its mnemonic: use --seal all or --seal secret-only");
        }
        if (passphrase.length == 0) {
            throw new IllegalArgumentException("a passphrase is required to seal the wallet's keys");
        }
        Chain chain = options.chain();
        Secret secret = new Secret(mnemonic, options.bip39Passphrase());
        WalletKeys keys = WalletKeys.fromMnemonic(
                secret.mnemonic(), secret.bip39Passphrase(), chain.addressNetwork(), options.gapLimit(), kinds);
        byte[] plain = secret.encode();
        SealedSecret sealed = SealedSecret.seal(plain, passphrase, options.scryptN());
        java.util.Arrays.fill(plain, (byte) 0);
        return LightWallet.create(
                file,
                chain,
                LightWallet.publicOnly(keys),
                sealed,
                options.birthday(),
                options.sealing() == Sealing.ALL ? FileKey.create(passphrase, options.scryptN()) : null,
                options.checkpoints());
    }

    /**
     * A watch-only wallet of {@code accounts} (e.g. {@link HdAccount#watchOnly} for an xpub, {@link
     * HdAccount#fromDescriptors}; at most one per kind), sealed {@link Sealing#ALL} with {@code
     * passphrase} or {@link Sealing#NONE} ({@code passphrase} may then be null); it has no secret, so
     * {@link Sealing#SECRET_ONLY} is refused.
     */
    public static LightWallet watchOnly(Path file, List<HdAccount> accounts, char[] passphrase, Options options) {
        if (options.sealing() == Sealing.SECRET_ONLY) {
            throw new IllegalArgumentException(
                    "a watch-only wallet has no secret to seal: use --seal all or --seal none");
        }
        if (!options.bip39Passphrase().isEmpty()) {
            throw new IllegalArgumentException("a watch-only wallet has no mnemonic for a BIP 39 passphrase");
        }
        Chain chain = options.chain();
        WalletKeys keys = WalletKeys.of(
                chain.addressNetwork(),
                options.gapLimit(),
                accounts.stream().map(HdAccount::publicOnly).toList());
        return LightWallet.create(
                file,
                chain,
                keys,
                null,
                options.birthday(),
                options.sealing() == Sealing.ALL ? FileKey.create(passphrase, options.scryptN()) : null,
                options.checkpoints());
    }
}
