package org.blockfilter.regtest.btcd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.RegtestNodeException;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(NodeLogOnFailure.class)
class BtcdNodeTest {
    private final Address miningAddress = new ECKey().toAddress(ScriptType.P2WPKH, RegtestNode.PARAMS.network());
    private Path binary;
    private BtcdNode node;

    @BeforeEach
    void findBinary() {
        binary = BtcdTestSupport.binaryOrSkip();
    }

    @AfterEach
    void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void minesToTheMiningAddressAndServesBlocksAndFilters() {
        node = BtcdNode.start(BtcdOptions.of(miningAddress).withBinary(binary));
        assertEquals(0, node.tipHeight());
        List<Sha256Hash> mined = node.mine(3);
        assertEquals(3, node.tipHeight());
        assertEquals(mined.get(2), node.tipHash());
        assertEquals(mined.get(0), node.blockHash(1).orElseThrow());
        assertTrue(node.blockHash(4).isEmpty(), "no block above the tip");
        Block block = node.block(mined.get(0)).orElseThrow();
        assertArrayEquals(
                ScriptBuilder.createOutputScript(miningAddress).program(),
                block.getTransactions().get(0).getOutput(0).getScriptPubKey().program());
        assertTrue(node.rawBlock(Sha256Hash.of(new byte[] {1})).isEmpty(), "unknown block is empty, not an error");
        assertTrue(node.cfilter(mined.get(0)).length > 0);
        assertTrue(node.p2pAddress().orElseThrow().getAddress().isLoopbackAddress());
    }

    @Test
    void reorgReplacesTheTipWithALongerBranch() {
        node = BtcdNode.start(BtcdOptions.of(miningAddress).withBinary(binary));
        List<Sha256Hash> old = node.mine(5);
        List<Sha256Hash> branch = node.reorg(2, 3);
        assertEquals(6, node.tipHeight());
        assertEquals(old.get(2), node.blockHash(3).orElseThrow(), "blocks below the fork stay");
        assertEquals(
                branch,
                List.of(node.blockHash(4).orElseThrow(), node.blockHash(5).orElseThrow(), node.tipHash()));
        assertNotEquals(old.get(3), branch.get(0));
        // The node keeps mining on the new branch.
        node.mine(1);
        assertEquals(7, node.tipHeight());
    }

    @Test
    void rejectedBlockFailsWithTheNodesReason() {
        node = BtcdNode.start(BtcdOptions.of(miningAddress).withBinary(binary));
        byte[] garbage = new byte[81];
        RegtestNodeException e = assertThrows(RegtestNodeException.class, () -> node.submitBlock(garbage));
        assertTrue(e.getMessage().contains("rejected"), e.getMessage());
    }

    @Test
    void closeStopsTheProcessAndDeletesItsDirectory() throws Exception {
        node = BtcdNode.start(BtcdOptions.of(miningAddress).withBinary(binary));
        Path dir = node.logFile().getParent().getParent();
        assertTrue(Files.isDirectory(dir));
        node.close();
        assertFalse(node.isRunning());
        assertFalse(Files.exists(dir));
        node.close();
    }

    @Test
    void missingBinaryIsAClearError() {
        Path nowhere = Path.of("/nonexistent/btcd");
        RegtestNodeException e = assertThrows(
                RegtestNodeException.class,
                () -> BtcdNode.start(BtcdOptions.of(miningAddress).withBinary(nowhere)));
        assertTrue(e.getMessage().contains("/nonexistent/btcd"), e.getMessage());
    }

    @Test
    void btcdBinPointingNowhereIsAnErrorNotAFallback() {
        RegtestNodeException e = assertThrows(
                RegtestNodeException.class,
                () -> BtcdBinary.locateOrInstall(
                        Map.of("BTCD_BIN", "/nonexistent/btcd", "PATH", System.getenv("PATH"))));
        assertTrue(e.getMessage().contains("BTCD_BIN=/nonexistent/btcd"), e.getMessage());
    }

    @Test
    void takenPortFailsWithTheLog() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            BtcdOptions options =
                    BtcdOptions.of(miningAddress).withBinary(binary).withPorts(taken.getLocalPort(), 0);
            RegtestNodeException e = assertThrows(RegtestNodeException.class, () -> BtcdNode.start(options));
            assertTrue(e.getMessage().contains("port taken"), e.getMessage());
            assertTrue(e.logTail().contains("address already in use"), e.logTail());
        }
    }

    @Test
    void nodeThatNeverAnswersTimesOutAndIsKilled(@TempDir Path tmp) throws Exception {
        Path silent = script(tmp, "echo started but never listening; exec sleep 600");
        BtcdOptions options = BtcdOptions.of(miningAddress).withBinary(silent).withStartTimeout(Duration.ofSeconds(1));
        RegtestNodeException e = assertThrows(RegtestNodeException.class, () -> BtcdNode.start(options));
        assertTrue(e.getMessage().contains("did not answer RPC"), e.getMessage());
        assertTrue(e.logTail().contains("started but never listening"), e.logTail());
    }

    @Test
    void nodeThatExitsDuringStartFailsWithItsExitCodeAndLog(@TempDir Path tmp) throws Exception {
        Path failing = script(tmp, "echo cannot open database; exit 3");
        RegtestNodeException e = assertThrows(
                RegtestNodeException.class,
                () -> BtcdNode.start(BtcdOptions.of(miningAddress).withBinary(failing)));
        assertTrue(e.getMessage().contains("exited with code 3"), e.getMessage());
        assertTrue(e.logTail().contains("cannot open database"), e.logTail());
    }

    private static Path script(Path dir, String body) throws Exception {
        Path file = dir.resolve("fake-btcd");
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        assertTrue(file.toFile().setExecutable(true));
        return file;
    }

    @Test
    void crashedNodeFailsCallsWithItsLog() throws Exception {
        node = BtcdNode.start(BtcdOptions.of(miningAddress).withBinary(binary));
        ProcessHandle handle = ProcessHandle.of(node.pid()).orElseThrow();
        handle.destroyForcibly();
        handle.onExit().get(30, TimeUnit.SECONDS);
        RegtestNodeException e = assertThrows(RegtestNodeException.class, node::tipHeight);
        assertTrue(e.getMessage().contains("btcd is not running"), e.getMessage());
        assertTrue(e.getMessage().contains("RPC server listening"), "log tail included: " + e.getMessage());
    }

    @Test
    void requiredBtcdFailsInsteadOfSkipping() {
        Map<String, String> ci = Map.of("CI", "true", "BTCD_BIN", "/nonexistent/btcd");
        assertThrows(AssertionError.class, () -> BtcdTestSupport.binaryOrSkip(ci));
        assertTrue(BtcdTestSupport.btcdRequired(Map.of("BLOCKFILTER_REQUIRE_BTCD", "true")));
        assertFalse(BtcdTestSupport.btcdRequired(Map.of()));
    }
}
