package org.blockfilter.server.node;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.server.rpc.BitcoinRpc;

/**
 * The network the node behind the server is on: the {@code chain} its {@code getblockchaininfo}
 * reports (Bitcoin Core's names, or btcd's: mainnet, testnet3, testnet4, signet, regtest), and the {@link Chain} that name denotes once the node's genesis block has been checked
 * against that network's. A chain name we do not know (or a signet with a challenge other than the
 * default one, which shares the default signet's name and genesis but not its message start) has
 * no {@link Chain}: the server indexes and serves it over HTTP, but cannot speak P2P for it.
 *
 * <p>Immutable.
 *
 * @param name  the name as the node reports it ("main", "test", "testnet4", "signet", "regtest", ...)
 * @param chain the network, when we know its parameters
 */
public record NodeChain(String name, Optional<Chain> chain) {

    /** Why there is no {@link Chain} for this node, for messages; empty when there is one. */
    public String unknownBecause() {
        if (chain.isPresent()) {
            return "";
        }
        return Chain.fromNodeName(name).isPresent()
                ? "the node is on a signet whose challenge is not the default signet's, so its message start is unknown"
                : "the node is on chain '" + name + "', which is none of " + String.join(", ", Chain.allCliNames());
    }

    /** Thrown when the node's genesis block is not the one of the network it names. */
    public static final class WrongGenesisException extends RuntimeException {
        WrongGenesisException(String message) {
            super(message);
        }
    }

    /**
     * Asks the node which network it is on and checks its genesis block against it.
     *
     * @throws WrongGenesisException when the node's block 0 is not that network's genesis
     * @throws org.blockfilter.server.rpc.RpcException when the node does not answer as Core does
     */
    public static NodeChain of(BitcoinRpc rpc) {
        String name = rpc.chainName();
        Optional<Chain> known = Chain.fromNodeName(name);
        if (known.isEmpty()) {
            return new NodeChain(name, Optional.empty());
        }
        Chain chain = known.get();
        Optional<Sha256Hash> genesis = rpc.blockHash(0);
        if (genesis.isEmpty() || !genesis.get().equals(chain.genesisHash())) {
            throw new WrongGenesisException("the node says it is on '" + name + "' (" + chain.cliName()
                    + "), but its block 0 is "
                    + genesis.map(Sha256Hash::toString).orElse("missing") + ", not "
                    + chain.cliName() + "'s genesis " + chain.genesisHash());
        }
        if (chain == Chain.SIGNET) {
            JsonNode challenge = rpc.blockchainInfo().get("signet_challenge");
            if (challenge != null
                    && challenge.isTextual()
                    && !challenge.asText().equalsIgnoreCase(Chain.DEFAULT_SIGNET_CHALLENGE)) {
                return new NodeChain(name, Optional.empty());
            }
        }
        return new NodeChain(name, known);
    }
}
