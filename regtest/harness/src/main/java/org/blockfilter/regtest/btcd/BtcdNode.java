package org.blockfilter.regtest.btcd;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.RegtestNodeException;
import org.blockfilter.regtest.internal.FreePorts;
import org.blockfilter.regtest.internal.LogTail;
import org.blockfilter.regtest.internal.RpcNode;
import org.blockfilter.regtest.internal.TempDirs;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.rpc.RpcException;

/**
 * A btcd regtest node in a child process, on free 127.0.0.1 ports, with a temporary data
 * directory that {@link #close()} deletes. It serves BIP 157/158 ({@code cfilters} are on unless
 * {@code --nocfilters}) and BIP 37 (on unless {@code --nopeerbloomfilters}) over P2P and
 * {@code getcfilter}/{@code getcfilterheader} over RPC. A JVM shutdown hook kills the process if
 * nobody closes the node. Thread-safe.
 *
 * <p>btcd's BIP 157 P2P handlers ignore requests until it believes it is synced; mine a block
 * first. Coinbases mature after 100 blocks.
 */
public final class BtcdNode extends RpcNode {
    private static final int START_ATTEMPTS = 3;
    private static final Duration RPC_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final int LOG_LINES = 40;
    private static final HexFormat HEX = HexFormat.of();

    private final Process process;
    private final Path dir;
    private final Path log;
    private final URI rpcUri;
    private final String user;
    private final String password;
    private final InetSocketAddress p2p;
    private final Thread shutdownHook;
    private final AtomicBoolean closed = new AtomicBoolean();

    private BtcdNode(
            BtcdOptions options,
            JsonRpcClient client,
            Process process,
            Path dir,
            Path log,
            URI rpcUri,
            String user,
            String password,
            InetSocketAddress p2p) {
        super(client, options.miningAddress());
        this.process = process;
        this.dir = dir;
        this.log = log;
        this.rpcUri = rpcUri;
        this.user = user;
        this.password = password;
        this.p2p = p2p;
        this.shutdownHook = new Thread(this::kill, "btcd-shutdown-" + p2p.getPort());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts btcd paying its coinbases to {@code options.miningAddress()}; waits until RPC answers. */
    public static BtcdNode start(BtcdOptions options) {
        Path binary = options.binary().orElseGet(() -> BtcdBinary.locateOrInstall(System.getenv()));
        if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
            throw new RegtestNodeException("btcd binary " + binary + " is missing or not executable", null);
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("blockfilter-btcd-");
        } catch (IOException e) {
            throw new RegtestNodeException("cannot create a temporary directory for btcd: " + e, e);
        }
        try {
            for (int attempt = 1; ; attempt++) {
                Optional<BtcdNode> node = tryStart(
                        options,
                        binary,
                        dir.resolve("attempt-" + attempt),
                        attempt == START_ATTEMPTS || !options.picksPorts());
                if (node.isPresent()) {
                    return node.get();
                }
            }
        } catch (RuntimeException | Error e) {
            TempDirs.deleteQuietly(dir);
            throw e;
        }
    }

    /** One start; empty if btcd could not bind its ports (a race for a free port) and we may retry. */
    private static Optional<BtcdNode> tryStart(BtcdOptions options, Path binary, Path home, boolean last) {
        int rpcPort = options.rpcPort() == 0 ? FreePorts.pick() : options.rpcPort();
        int p2pPort = options.p2pPort() == 0 ? FreePorts.pick() : options.p2pPort();
        String user = "blockfilter";
        String password = UUID.randomUUID().toString();
        Path log = home.resolve("btcd.out");
        List<String> cmd = new ArrayList<>(List.of(
                binary.toString(),
                "--configfile=" + home.resolve("btcd.conf"),
                "--regtest",
                "--notls",
                "--datadir=" + home.resolve("data"),
                "--logdir=" + home.resolve("logs"),
                "--rpcuser=" + user,
                "--rpcpass=" + password,
                "--rpclisten=127.0.0.1:" + rpcPort,
                "--listen=127.0.0.1:" + p2pPort,
                "--miningaddr=" + options.miningAddress(),
                "--trickleinterval=50ms",
                "--utxocachemaxsize=16",
                "--nostalldetect",
                "--nobanning",
                "--debuglevel=info"));
        cmd.addAll(options.extraArgs());
        Process process;
        try {
            Files.createDirectories(home);
            Files.createFile(home.resolve("btcd.conf"));
            process = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new RegtestNodeException("cannot start btcd (" + binary + "): " + e, LogTail.of(log, LOG_LINES), e);
        }
        URI uri = URI.create("http://127.0.0.1:" + rpcPort);
        JsonRpcClient probe = JsonRpcClient.create(uri, user, password, PROBE_TIMEOUT);
        Instant deadline = Instant.now().plus(options.startTimeout());
        try {
            while (true) {
                if (!process.isAlive()) {
                    String tail = LogTail.of(log, LOG_LINES);
                    if (tail.contains("address already in use") && !last) {
                        return Optional.empty();
                    }
                    String why = tail.contains("address already in use")
                            ? " (port taken: rpc " + rpcPort + ", p2p " + p2pPort + ")"
                            : "";
                    throw new RegtestNodeException(
                            "btcd exited with code " + process.exitValue() + " while starting" + why, tail, null);
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new RegtestNodeException(
                            "btcd did not answer RPC on " + uri + " within " + options.startTimeout(),
                            LogTail.of(log, LOG_LINES),
                            null);
                }
                try {
                    probe.call("getblockcount");
                    BtcdNode node = new BtcdNode(
                            options,
                            JsonRpcClient.create(uri, user, password, RPC_TIMEOUT),
                            process,
                            home.getParent(),
                            log,
                            uri,
                            user,
                            password,
                            new InetSocketAddress("127.0.0.1", p2pPort));
                    return Optional.of(node);
                } catch (RpcException e) {
                    if (!e.isTransportError()) {
                        throw new RegtestNodeException(
                                "btcd answered RPC with an error while starting: " + e.getMessage(),
                                LogTail.of(log, LOG_LINES),
                                e);
                    }
                }
                // Returns early if the process exits.
                process.waitFor(100, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            destroy(process);
            throw new RegtestNodeException("interrupted while starting btcd", e);
        } catch (RuntimeException e) {
            destroy(process);
            throw e;
        }
    }

    @Override
    public String name() {
        return "btcd";
    }

    @Override
    protected List<Sha256Hash> mineBatch(int count) {
        JsonNode hashes = rpcClient().call("generate", count);
        List<Sha256Hash> out = new ArrayList<>(hashes.size());
        hashes.forEach(h -> out.add(Sha256Hash.wrap(h.asText())));
        return out;
    }

    /** btcd's {@code getcfilter hash 0}: the serialized basic filter of the block. */
    public byte[] cfilter(Sha256Hash blockHash) {
        return HEX.parseHex(guarded(
                        "getcfilter " + blockHash, () -> rpcClient().call("getcfilter", blockHash.toString(), 0))
                .asText());
    }

    /**
     * btcd's {@code getcfilterheader hash 0}. btcd prints the header byte-reversed, like a block
     * hash, so the result is in bitcoinj display order: {@code toString()} equals the RPC hex.
     */
    public Sha256Hash cfilterHeader(Sha256Hash blockHash) {
        return Sha256Hash.wrap(guarded(
                        "getcfilterheader " + blockHash,
                        () -> rpcClient().call("getcfilterheader", blockHash.toString(), 0))
                .asText());
    }

    /** Whether the btcd process is still running. */
    public boolean isRunning() {
        return process.isAlive();
    }

    /** The btcd process id (tests kill it to check crash handling). */
    public long pid() {
        return process.pid();
    }

    /** The file btcd's output goes to (removed by {@link #close()}). */
    public Path logFile() {
        return log;
    }

    @Override
    public String logTail() {
        String state = process.isAlive() ? "" : "(btcd is not running: exit code " + process.exitValue() + ")\n";
        return state + LogTail.of(log, LOG_LINES);
    }

    @Override
    public URI rpcUri() {
        return rpcUri;
    }

    @Override
    public String rpcUser() {
        return user;
    }

    @Override
    public String rpcPassword() {
        return password;
    }

    @Override
    public Optional<InetSocketAddress> p2pAddress() {
        return Optional.of(p2p);
    }

    /** Stops btcd (RPC {@code stop}, then destroy if it lingers) and deletes its directory. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            if (process.isAlive()) {
                try {
                    JsonRpcClient.create(rpcUri, user, password, Duration.ofSeconds(5))
                            .call("stop");
                } catch (RpcException e) {
                    // Already stopping or unreachable: destroy below.
                }
                if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    destroy(process);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            destroy(process);
        } finally {
            TempDirs.deleteQuietly(dir);
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down; the hook runs anyway.
            }
        }
    }

    /** The shutdown hook: only if nobody closed the node (a concurrent close does the work). */
    private void kill() {
        if (closed.compareAndSet(false, true)) {
            destroy(process);
            TempDirs.deleteQuietly(dir);
        }
    }

    private static void destroy(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
