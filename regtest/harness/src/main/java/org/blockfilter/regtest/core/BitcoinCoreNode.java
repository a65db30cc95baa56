package org.blockfilter.regtest.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.RegtestNodeException;
import org.blockfilter.regtest.internal.RpcNode;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * Bitcoin Core in a Testcontainers container: {@code -regtest -blockfilterindex=1
 * -peerblockfilters=1 -peerbloomfilters=1 -rest}, JSON-RPC and P2P on mapped ports. Mining uses
 * {@code generatetoaddress} to the mining address given at start. Thread-safe; {@link #close()}
 * removes the container.
 */
public final class BitcoinCoreNode extends RpcNode {
    /** The image we test against; override with {@link #start(Address, String)}. */
    public static final String DEFAULT_IMAGE = "bitcoin/bitcoin:28.1";

    private static final int RPC_PORT = Chain.REGTEST.defaultRpcPort();
    private static final int P2P_PORT = Chain.REGTEST.defaultP2pPort();
    private static final int LOG_LINES = 40;

    private final GenericContainer<?> container;
    private final URI rpcUri;
    private final String user;
    private final String password;
    private final AtomicBoolean closed = new AtomicBoolean();

    private BitcoinCoreNode(
            GenericContainer<?> container, URI rpcUri, String user, String password, Address miningAddress) {
        super(JsonRpcClient.create(rpcUri, user, password, Duration.ofSeconds(120)), miningAddress);
        this.container = container;
        this.rpcUri = rpcUri;
        this.user = user;
        this.password = password;
    }

    public static BitcoinCoreNode start(Address miningAddress) {
        return start(miningAddress, DEFAULT_IMAGE);
    }

    /**
     * Starts {@code image} and waits until bitcoind has loaded.
     *
     * @throws RegtestNodeException if Docker is unavailable or the node does not come up (with its log)
     */
    public static BitcoinCoreNode start(Address miningAddress, String image) {
        String user = "blockfilter";
        String password = UUID.randomUUID().toString();
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
                .withExposedPorts(RPC_PORT, P2P_PORT)
                .withCommand(
                        "-regtest",
                        "-printtoconsole",
                        "-server",
                        "-rest",
                        "-blockfilterindex=1",
                        "-peerblockfilters=1",
                        "-peerbloomfilters=1",
                        "-rpcbind=0.0.0.0",
                        "-rpcallowip=0.0.0.0/0",
                        "-rpcport=" + RPC_PORT,
                        "-port=" + P2P_PORT,
                        "-rpcuser=" + user,
                        "-rpcpassword=" + password,
                        "-fallbackfee=0.0001",
                        // Scenarios create bare multisig outputs; say so rather than rely on the default.
                        "-permitbaremultisig=1")
                .waitingFor(Wait.forLogMessage(".*[Dd]one loading.*", 1).withStartupTimeout(Duration.ofSeconds(120)));
        try {
            container.start();
        } catch (RuntimeException e) {
            String logs = safeLogs(container);
            container.stop();
            throw new RegtestNodeException("Bitcoin Core (" + image + ") did not start: " + e.getMessage(), logs, e);
        }
        URI uri = URI.create("http://" + container.getHost() + ":" + container.getMappedPort(RPC_PORT));
        return new BitcoinCoreNode(container, uri, user, password, miningAddress);
    }

    @Override
    public String name() {
        return "bitcoind";
    }

    @Override
    protected List<Sha256Hash> mineBatch(int count) {
        JsonNode hashes =
                rpcClient().call("generatetoaddress", count, miningAddress().toString());
        List<Sha256Hash> out = new ArrayList<>(hashes.size());
        hashes.forEach(h -> out.add(Sha256Hash.wrap(h.asText())));
        return out;
    }

    @Override
    public String logTail() {
        String logs = safeLogs(container);
        String[] lines = logs.split("\r?\n");
        return String.join(
                "\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - LOG_LINES), lines.length));
    }

    private static String safeLogs(GenericContainer<?> container) {
        try {
            return container.getLogs();
        } catch (RuntimeException e) {
            return "(container logs unavailable: " + e.getMessage() + ")";
        }
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
        return Optional.of(new InetSocketAddress(container.getHost(), container.getMappedPort(P2P_PORT)));
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            container.stop();
        }
    }
}
