package org.blockfilter.regtest.networks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.server.node.NodeChain;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.rpc.RpcException;
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each public network's parameters against btcd's own (its chaincfg, written independently of
 * Bitcoin Core and of us): btcd started on that network with nothing but its genesis block names
 * the network we map it to, its block 0 is our genesis (the server's genesis check), and it accepts
 * a P2P handshake with our message start and refuses another network's. btcd never connects out:
 * its only outbound peer is a closed port on 127.0.0.1 and DNS seeding is off.
 */
class BtcdNetworksTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(
            value = Chain.class,
            names = {"MAINNET", "TESTNET3", "TESTNET4", "SIGNET"})
    void btcdAgreesOnTheNetworksNameGenesisAndMagic(Chain chain) throws Exception {
        Path btcd = BtcdTestSupport.binaryOrSkip();
        int rpcPort = freePort();
        int p2pPort = freePort();
        String password = UUID.randomUUID().toString();
        List<String> cmd = new ArrayList<>(List.of(
                btcd.toString(),
                "--configfile=" + Files.createFile(dir.resolve("btcd.conf")),
                "--notls",
                "--datadir=" + dir.resolve("data"),
                "--logdir=" + dir.resolve("logs"),
                "--rpcuser=u",
                "--rpcpass=" + password,
                "--rpclisten=127.0.0.1:" + rpcPort,
                "--listen=127.0.0.1:" + p2pPort,
                "--nodnsseed",
                "--connect=127.0.0.1:" + freePort(),
                "--utxocachemaxsize=16",
                "--debuglevel=info"));
        switch (chain) {
            case TESTNET3 -> cmd.add("--testnet");
            case TESTNET4 -> cmd.add("--testnet4");
            case SIGNET -> cmd.add("--signet");
            default -> {}
        }
        Process process = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("btcd.out").toFile())
                .start();
        try {
            BitcoinRpc rpc = new BitcoinRpc(JsonRpcClient.create(
                    java.net.URI.create("http://127.0.0.1:" + rpcPort), "u", password, Duration.ofSeconds(10)));
            awaitRpc(rpc, process);

            NodeChain node = NodeChain.of(rpc);
            assertEquals(Optional.of(chain), node.chain(), "btcd reports chain '" + node.name() + "'");
            assertEquals(Optional.of(chain.genesisHash()), rpc.blockHash(0));

            InetSocketAddress peer = new InetSocketAddress("127.0.0.1", p2pPort);
            P2pSource.Options options = P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(10));
            try (P2pSource source = P2pSource.connect(peer, chain, options)) {
                assertEquals(0, source.tipHeight());
            }
            Chain other = chain == Chain.TESTNET3 ? Chain.TESTNET4 : Chain.TESTNET3;
            assertThrows(
                    SourceException.class,
                    () -> P2pSource.connect(peer, other, options.withAttempts(1).withTimeout(Duration.ofSeconds(3)))
                            .close());
        } finally {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private void awaitRpc(BitcoinRpc rpc, Process process) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        while (true) {
            if (!process.isAlive()) {
                throw new AssertionError("btcd exited: " + Files.readString(dir.resolve("btcd.out")));
            }
            try {
                rpc.blockCount();
                return;
            } catch (RpcException e) {
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError(
                            "btcd did not answer RPC: " + Files.readString(dir.resolve("btcd.out")), e);
                }
                process.waitFor(100, TimeUnit.MILLISECONDS);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
