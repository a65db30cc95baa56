package org.blockfilter.regtest.p2p;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.blockfilter.regtest.bdk.BdkPython;

/**
 * A BDK wallet (BIP 84, the "abandon ... about" mnemonic) synced by BDK's Kyoto light client from
 * one peer, in a Python child process driven line by line ({@code bdk/cbf_wallet.py}). Its stderr
 * (Kyoto's info and warnings) is kept for failure messages. Not thread-safe.
 */
final class BdkCbfWallet implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EOF = "\u0000EOF";

    private final Process process;
    private final Writer in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());

    /** The wallet's state after an update. */
    record State(int height, String hash, long total, long confirmed, List<String> txids) {}

    BdkCbfWallet(BdkPython python, int peerPort, Path dataDir) throws IOException {
        this(python, peerPort, dataDir, false);
    }

    /** With {@code v2} Kyoto connects over BIP 324 ({@code Peer(v2_transport=True)}). */
    BdkCbfWallet(BdkPython python, int peerPort, Path dataDir, boolean v2) throws IOException {
        Path script = dataDir.resolve("cbf_wallet.py");
        try (InputStream s = BdkCbfWallet.class.getResourceAsStream("/bdk/cbf_wallet.py")) {
            Files.copy(s, script);
        }
        process = new ProcessBuilder(
                        python.python().toString(),
                        "-u",
                        script.toString(),
                        Integer.toString(peerPort),
                        dataDir.resolve("kyoto").toString(),
                        v2 ? "v2" : "v1")
                .start();
        in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump(process.getInputStream(), lines::add, true);
        pump(process.getErrorStream(), log::add, false);
    }

    private void pump(InputStream s, java.util.function.Consumer<String> sink, boolean eof) {
        Thread t = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(new InputStreamReader(s, StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            sink.accept(line);
                        }
                    } catch (IOException e) {
                        sink.accept("read failed: " + e);
                    } finally {
                        if (eof) {
                            lines.add(EOF);
                        }
                    }
                },
                "bdk-output");
        t.setDaemon(true);
        t.start();
    }

    private JsonNode call(String command, Duration timeout) {
        try {
            in.write(command + "\n");
            in.flush();
            String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null || line.equals(EOF)) {
                throw new AssertionError((line == null
                                ? "no answer to '" + command + "' within " + timeout
                                : "the BDK process ended during '" + command + "'")
                        + "; its log:\n" + log());
            }
            JsonNode answer = JSON.readTree(line);
            if (answer.has("error")) {
                throw new AssertionError("BDK: " + answer.get("error").asText() + "; its log:\n" + log());
            }
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Reveals n receive addresses; their scriptPubKeys, hex. */
    List<String> addresses(int n) {
        List<String> out = new ArrayList<>();
        call("addresses " + n, Duration.ofSeconds(30))
                .get("addresses")
                .forEach(a -> out.add(
                        a.get("address").asText() + " " + a.get("script").asText()));
        return out;
    }

    /** The next update from Kyoto (a sync to the peer's tip, or a new block), applied. */
    State update() {
        return update(Duration.ofMinutes(2));
    }

    /** {@link #update()}, waiting at most {@code timeout} (a long chain's first sync takes longer). */
    State update(Duration timeout) {
        JsonNode s = call("update", timeout);
        List<String> txids = new ArrayList<>();
        s.get("txids").forEach(t -> txids.add(t.asText()));
        return new State(
                s.get("height").asInt(),
                s.get("hash").asText(),
                s.get("total").asLong(),
                s.get("confirmed").asLong(),
                txids);
    }

    /** Pays {@code sats} to {@code address} and broadcasts through the peer; the txid. */
    String send(String address, long sats) {
        return call("send " + address + " " + sats, Duration.ofMinutes(1))
                .get("txid")
                .asText();
    }

    /** A broadcast txid and wtxid. */
    record Sent(String txid, String wtxid) {}

    /**
     * Spends every coin the wallet knows to {@code address} at 1 sat/vB and broadcasts it through
     * the peer: after {@link #send} (which the wallet is not told of) a conflict paying less than
     * that payment, which a node refuses.
     */
    Sent sendConflict(String address) {
        JsonNode sent = call("conflict " + address, Duration.ofMinutes(1));
        return new Sent(sent.get("txid").asText(), sent.get("wtxid").asText());
    }

    String log() {
        synchronized (log) {
            return String.join("\n", log);
        }
    }

    @Override
    public void close() {
        try {
            in.write("quit\n");
            in.flush();
        } catch (IOException e) {
            // the process is gone already
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
