package org.blockfilter.regtest.scenario.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.bitcoinj.base.Address;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.bitcoinj.script.ScriptException;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.scenario.OutputKind;
import org.blockfilter.regtest.scenario.OwnedScript;
import org.blockfilter.regtest.scenario.ScenarioWallet;

/**
 * The wallet population: keys derived from the seed, scripts created on demand (with reuse),
 * and the index from scriptPubKey to owner. Wallet 0 is the miner; its first script is the
 * P2WPKH mining address. Not thread-safe (one scenario run owns it).
 */
public final class WalletBook {
    private static final HexFormat HEX = HexFormat.of();
    private static final OutputKind[] KINDS = {
        OutputKind.P2PKH,
        OutputKind.P2WPKH,
        OutputKind.P2SH_MULTISIG,
        OutputKind.P2WSH_MULTISIG,
        OutputKind.P2TR,
        OutputKind.BARE_MULTISIG
    };
    private static final int[] WEIGHTS = {20, 32, 12, 12, 10, 8};

    private final long seed;
    private final List<Wallet> wallets = new ArrayList<>();
    private final Map<String, OwnedScript> byProgram = new HashMap<>();

    public WalletBook(long seed, int walletsBesidesMiner) {
        this.seed = seed;
        for (int i = 0; i <= walletsBesidesMiner; i++) {
            wallets.add(new Wallet(i, i == 0 ? "miner" : "wallet-" + i));
        }
        ECKey miningKey = wallets.get(0).nextKey();
        register(new OwnedScript(
                0,
                OutputKind.P2WPKH,
                ScriptBuilder.createP2WPKHOutputScript(miningKey),
                address(ScriptBuilder.createP2WPKHOutputScript(miningKey)),
                List.of(miningKey),
                Optional.empty()));
    }

    public int size() {
        return wallets.size();
    }

    /** The owner of an output script, if a scenario wallet created it. */
    public Optional<OwnedScript> owner(byte[] scriptPubKey) {
        return Optional.ofNullable(byProgram.get(HEX.formatHex(scriptPubKey)));
    }

    /** A script for {@code wallet} to receive to: an old one with probability {@code reuseRate}, else a new one of a random kind. */
    public OwnedScript receiveScript(int wallet, Random rng, double reuseRate) {
        Wallet w = wallets.get(wallet);
        if (!w.scripts.isEmpty() && rng.nextDouble() < reuseRate) {
            return w.scripts.get(rng.nextInt(w.scripts.size()));
        }
        return newScript(w, randomKind(rng));
    }

    /** A new change script of a spendable kind. */
    public OwnedScript changeScript(int wallet, Random rng) {
        OutputKind kind;
        do {
            kind = randomKind(rng);
        } while (!kind.spentByScenario());
        return newScript(wallets.get(wallet), kind);
    }

    public List<ScenarioWallet> snapshot() {
        return wallets.stream()
                .map(w -> new ScenarioWallet(w.index, w.name, w.keys, w.scripts))
                .toList();
    }

    private static OutputKind randomKind(Random rng) {
        int total = Arrays.stream(WEIGHTS).sum();
        int r = rng.nextInt(total);
        for (int i = 0; i < KINDS.length; i++) {
            r -= WEIGHTS[i];
            if (r < 0) {
                return KINDS[i];
            }
        }
        throw new AssertionError();
    }

    private OwnedScript newScript(Wallet w, OutputKind kind) {
        OwnedScript s = switch (kind) {
            case P2PKH -> single(w, kind, ScriptBuilder::createP2PKHOutputScript);
            case P2WPKH -> single(w, kind, ScriptBuilder::createP2WPKHOutputScript);
            case P2TR ->
                single(
                        w,
                        kind,
                        k -> new ScriptBuilder()
                                .smallNum(1)
                                .data(Arrays.copyOfRange(k.getPubKey(), 1, 33))
                                .build());
            case P2SH_MULTISIG -> {
                List<ECKey> keys = List.of(w.nextKey(), w.nextKey(), w.nextKey());
                Script redeem = ScriptBuilder.createMultiSigOutputScript(2, keys);
                Script spk = ScriptBuilder.createP2SHOutputScript(redeem);
                yield new OwnedScript(w.index, kind, spk, address(spk), keys, Optional.of(redeem));
            }
            case P2WSH_MULTISIG -> {
                List<ECKey> keys = List.of(w.nextKey(), w.nextKey(), w.nextKey());
                Script witnessScript = ScriptBuilder.createMultiSigOutputScript(2, keys);
                Script spk = ScriptBuilder.createP2WSHOutputScript(witnessScript);
                yield new OwnedScript(w.index, kind, spk, address(spk), keys, Optional.of(witnessScript));
            }
            case BARE_MULTISIG -> {
                List<ECKey> keys = List.of(w.nextKey(), w.nextKey());
                Script spk = ScriptBuilder.createMultiSigOutputScript(1, keys);
                yield new OwnedScript(w.index, kind, spk, Optional.empty(), keys, Optional.empty());
            }
            case OP_RETURN -> throw new IllegalArgumentException("OP_RETURN outputs have no owner");
        };
        register(s);
        return s;
    }

    private OwnedScript single(Wallet w, OutputKind kind, java.util.function.Function<ECKey, Script> make) {
        ECKey key = w.nextKey();
        Script spk = make.apply(key);
        return new OwnedScript(w.index, kind, spk, address(spk), List.of(key), Optional.empty());
    }

    private void register(OwnedScript s) {
        String hex = HEX.formatHex(s.program());
        OwnedScript previous = byProgram.putIfAbsent(hex, s);
        if (previous == null) {
            wallets.get(s.wallet()).scripts.add(s);
        }
    }

    private static Optional<Address> address(Script spk) {
        try {
            return Optional.of(spk.getToAddress(RegtestNode.PARAMS.network()));
        } catch (ScriptException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private final class Wallet {
        final int index;
        final String name;
        final List<ECKey> keys = new ArrayList<>();
        final List<OwnedScript> scripts = new ArrayList<>();

        Wallet(int index, String name) {
            this.index = index;
            this.name = name;
        }

        ECKey nextKey() {
            ECKey key = Keys.derive(seed, index, keys.size());
            keys.add(key);
            return key;
        }
    }
}
