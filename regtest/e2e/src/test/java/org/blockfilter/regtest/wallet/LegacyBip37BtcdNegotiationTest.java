package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.core.PeerGroup;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.filters.p2p.MessageFrame;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.legacy.LegacyBip37Sync;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Legacy BIP 37 sync from btcd through a relay that adds what Bitcoin Core sends around the
 * handshake and btcd does not: {@code wtxidrelay} and {@code sendtxrcncl} before btcd's {@code
 * verack}, {@code sendcmpct} and {@code feefilter} right after it. btcd's own messages (its {@code
 * sendaddrv2} included) pass unchanged, so the chain, the headers and the merkleblocks are btcd's.
 */
@ExtendWith(NodeLogOnFailure.class)
class LegacyBip37BtcdNegotiationTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] MAGIC = {(byte) 0xfa, (byte) 0xbf, (byte) 0xb5, (byte) 0xda};
    /** Generous for a loaded machine: the small chain syncs in seconds, a killed connection never. */
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private BtcdNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void syncsBtcdsChainWithCoresNegotiationMessagesAdded() throws IOException {
        ScenarioSpec spec = ScenarioSpec.small(20_261_202L, 5);
        node = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()));
        ScenarioRunner.run(node, spec);
        try (NegotiatingRelay relay = new NegotiatingRelay(node.p2pAddress().orElseThrow())) {
            LegacyBip37Sync.Result r = LegacyBip37Sync.sync(
                    RegtestNode.PARAMS,
                    relay.address(),
                    List.of(new ECKey()),
                    List.of(),
                    PeerGroup.DEFAULT_BLOOM_FILTER_FP_RATE,
                    TIMEOUT);
            assertEquals(node.tipHeight(), r.tipHeight());
            assertEquals(node.tipHeight(), r.filteredBlocks(), "one merkleblock per block after genesis");
        }
    }

    /** Forwards btcd's frames one by one, adding Core's negotiation messages around its verack. */
    private static final class NegotiatingRelay extends LoopbackRelay {
        NegotiatingRelay(InetSocketAddress target) throws IOException {
            super(target, "negotiating-relay");
            start();
        }

        @Override
        protected void toTarget(Socket client, Socket upstream) throws IOException {
            client.getInputStream().transferTo(upstream.getOutputStream());
        }

        @Override
        protected void toClient(Socket upstream, Socket client) throws IOException {
            InputStream in = upstream.getInputStream();
            OutputStream out = client.getOutputStream();
            while (true) {
                MessageFrame.Frame f = MessageFrame.read(in, MAGIC);
                boolean verack = f.command().equals("verack");
                if (verack) {
                    // BIP 339 and BIP 330: before verack. sendtxrcncl: version 1, a salt.
                    out.write(MessageFrame.encode(MAGIC, "wtxidrelay", new byte[0]));
                    out.write(MessageFrame.encode(MAGIC, "sendtxrcncl", HEX.parseHex("010000000123456789abcdef")));
                }
                out.write(f.bytes());
                if (verack) {
                    // BIP 152 (announce 0, version 2, as Core sends it) and BIP 133 (1000 sat/kvB).
                    out.write(MessageFrame.encode(MAGIC, "sendcmpct", HEX.parseHex("000200000000000000")));
                    out.write(MessageFrame.encode(MAGIC, "feefilter", HEX.parseHex("e803000000000000")));
                }
                out.flush();
            }
        }
    }
}
