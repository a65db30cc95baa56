package org.blockfilter.server.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BiFunction;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.Http11OnlyNode;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.junit.jupiter.api.Test;

class NodeChainTest {
    private final RegtestChainBuilder regtest = new RegtestChainBuilder().mine(2);

    @Test
    void aRegtestNodeIsOnRegtest() throws IOException {
        NodeChain c = ask((m, p) -> Http11OnlyNode.chainAnswer(regtest, m, p));
        assertEquals(new NodeChain("regtest", Optional.of(Chain.REGTEST)), c);
        assertEquals("", c.unknownBecause());
    }

    @Test
    void aNodeThatNamesAnotherNetworkThanItsGenesisIsRefused() {
        NodeChain.WrongGenesisException e = assertThrows(
                NodeChain.WrongGenesisException.class,
                () -> ask(named("main", Chain.REGTEST.genesisHash().toString())));
        assertEquals(
                "the node says it is on 'main' (mainnet), but its block 0 is " + Chain.REGTEST.genesisHash()
                        + ", not mainnet's genesis " + Chain.MAINNET.genesisHash(),
                e.getMessage());
    }

    @Test
    void eachNetworkIsKnownByItsCoreNameAndGenesis() throws IOException {
        for (Chain c : Chain.values()) {
            assertEquals(
                    Optional.of(c),
                    ask(named(c.coreName(), c.genesisHash().toString())).chain());
        }
    }

    @Test
    void anUnknownChainHasNoParameters() throws IOException {
        NodeChain c = ask(named("liquidv1", Chain.MAINNET.genesisHash().toString()));
        assertEquals(Optional.empty(), c.chain());
        assertTrue(
                c.unknownBecause().contains("chain 'liquidv1', which is none of mainnet, testnet3"),
                c.unknownBecause());
    }

    @Test
    void aSignetWithAnotherChallengeHasNoKnownMessageStart() throws IOException {
        String genesis = Chain.SIGNET.genesisHash().toString();
        NodeChain custom = ask((m, p) -> m.equals("getblockchaininfo")
                ? Http11OnlyNode.Answer.result("{\"chain\":\"signet\",\"signet_challenge\":\"51\"}")
                : Http11OnlyNode.Answer.result("\"" + genesis + "\""));
        assertEquals(Optional.empty(), custom.chain());
        assertTrue(custom.unknownBecause().contains("challenge is not the default signet's"), custom.unknownBecause());
        NodeChain standard = ask((m, p) -> m.equals("getblockchaininfo")
                ? Http11OnlyNode.Answer.result(
                        "{\"chain\":\"signet\",\"signet_challenge\":\"" + Chain.DEFAULT_SIGNET_CHALLENGE + "\"}")
                : Http11OnlyNode.Answer.result("\"" + genesis + "\""));
        assertEquals(Optional.of(Chain.SIGNET), standard.chain());
    }

    private static BiFunction<String, com.fasterxml.jackson.databind.JsonNode, Http11OnlyNode.Answer> named(
            String chain, String genesis) {
        return (m, p) -> m.equals("getblockchaininfo")
                ? Http11OnlyNode.Answer.result("{\"chain\":\"" + chain + "\"}")
                : Http11OnlyNode.Answer.result("\"" + genesis + "\"");
    }

    private static NodeChain ask(
            BiFunction<String, com.fasterxml.jackson.databind.JsonNode, Http11OnlyNode.Answer> script)
            throws IOException {
        try (Http11OnlyNode node = new Http11OnlyNode(script)) {
            return NodeChain.of(new BitcoinRpc(JsonRpcClient.fromUrl(node.url(), Duration.ofSeconds(10))));
        }
    }
}
