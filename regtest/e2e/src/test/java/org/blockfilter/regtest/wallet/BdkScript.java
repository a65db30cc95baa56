package org.blockfilter.regtest.wallet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.blockfilter.regtest.bdk.BdkPython;

/**
 * {@code bdk/bdk_wallet.py} (test resources) run with bdkpython: address derivation and Kyoto
 * syncs of BDK wallets. Each run is timed and printed, so the report can quote it. Not thread-safe.
 */
final class BdkScript {
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final BdkPython bdk;
    private final Path script;

    BdkScript(BdkPython bdk, Path dir) {
        this.bdk = bdk;
        this.script = dir.resolve("bdk_wallet.py");
        try (InputStream in = BdkScript.class.getResourceAsStream("/bdk/bdk_wallet.py")) {
            Files.write(script, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode addresses(String mnemonic, int count) {
        return run(List.of("addresses", mnemonic, Integer.toString(count)));
    }

    /** The first {@code count} receive and change addresses of a BDK wallet made from the two descriptors. */
    JsonNode descriptorAddresses(String receive, String change, int count) {
        return run(List.of("descriptor-addresses", receive, change, Integer.toString(count)));
    }

    /** Syncs a watch-only BDK wallet of the two descriptors from {@code peer} (Kyoto); balance, coins, txids. */
    JsonNode descriptorSync(InetSocketAddress peer, String receive, String change) {
        return run(List.of("descriptor-sync", peer.getHostString() + ":" + peer.getPort(), receive, change));
    }

    /** The first {@code count} BIP 84 receive addresses of {@code mnemonic} with the BIP 39 {@code passphrase}. */
    JsonNode passphraseAddresses(String mnemonic, String passphrase, int count) {
        return run(List.of("passphrase-addresses", mnemonic, passphrase, Integer.toString(count)));
    }

    /** BDK's public receive and change descriptors of one kind ("44", "49", "84", "86") of {@code mnemonic}. */
    JsonNode export(String mnemonic, String kind) {
        return run(List.of("export", mnemonic, kind));
    }

    /** Syncs one BDK wallet per kind ("44", "84", "86") from {@code peer}; the first pays {@code payments}. */
    JsonNode sync(String mnemonic, InetSocketAddress peer, List<String> kinds, List<String> payments) {
        List<String> args = new ArrayList<>(
                List.of("sync", mnemonic, peer.getHostString() + ":" + peer.getPort(), String.join(",", kinds)));
        args.addAll(payments);
        return run(args);
    }

    private JsonNode run(List<String> args) {
        long start = System.nanoTime();
        BdkPython.Result r = bdk.run(script, args, TIMEOUT);
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.err.println("[bdk] " + args.get(0) + " " + args.subList(Math.min(args.size(), 3), args.size()) + ": "
                + millis + " ms");
        if (r.exitCode() != 0) {
            throw new AssertionError("bdk_wallet.py " + args.get(0) + " exited " + r.exitCode() + "\n" + r.stderr());
        }
        try {
            return new ObjectMapper().readTree(r.stdout());
        } catch (IOException e) {
            throw new AssertionError("bdk_wallet.py printed no JSON: " + r.stdout() + "\n" + r.stderr(), e);
        }
    }
}
