package org.blockfilter.wallet.legacy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.PartialMerkleTree;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.params.RegTestParams;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.filters.p2p.MessageFrame;

/**
 * A BIP 37 node on 127.0.0.1 (free port) serving a small regtest chain of coinbase-only blocks to
 * one connection at a time: it handshakes as protocol 70016 with NODE_NETWORK | NODE_BLOOM |
 * NODE_WITNESS, sends one extra message (command and payload as given) either between its
 * {@code version} and {@code verack} or right after its {@code verack}, the way today's nodes send
 * their feature negotiation, and then answers {@code getblocks} with an {@code inv} of the chain,
 * {@code getheaders} with its headers, {@code getdata} for filtered blocks with {@code merkleblock}s
 * matching nothing, and {@code ping} with {@code pong}. Everything else it ignores.
 */
final class Bip37TestPeer implements AutoCloseable {
    static final byte[] MAGIC = {(byte) 0xfa, (byte) 0xbf, (byte) 0xb5, (byte) 0xda};
    private static final long SERVICES = 1 | 4 | 8;
    private static final int MSG_BLOCK = 2;
    private static final int MSG_FILTERED_BLOCK = 3;

    private final ServerSocket server;
    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Block> chain = new ArrayList<>();
    private final String extraCommand;
    private final byte[] extraPayload;
    private final boolean beforeVerack;

    Bip37TestPeer(int blocks, String extraCommand, byte[] extraPayload, boolean beforeVerack) throws IOException {
        this.extraCommand = extraCommand;
        this.extraPayload = extraPayload.clone();
        this.beforeVerack = beforeVerack;
        Context.propagate(new Context()); // createNextBlock needs one
        Address miner = new ECKey().toAddress(ScriptType.P2PKH, BitcoinNetwork.REGTEST);
        Block tip = RegTestParams.get().getGenesisBlock();
        for (int i = 0; i < blocks; i++) {
            tip = tip.createNextBlock(miner);
            chain.add(tip);
        }
        this.server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        executor.submit(this::serve);
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    int height() {
        return chain.size();
    }

    /** Connections accepted so far (a client whose connection died reconnects). */
    int connections() {
        return connections.get();
    }

    private Void serve() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                connections.incrementAndGet();
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                while (true) {
                    answer(MessageFrame.read(in, MAGIC).decode(), out);
                    out.flush();
                }
            } catch (IOException | RuntimeException e) {
                // Client went away (or the test closed us): serve the next connection.
            }
        }
        return null;
    }

    private void answer(Message m, OutputStream out) throws IOException {
        if (m instanceof Message.Version) {
            send(out, new Message.Version(70016, SERVICES, 0, 0, 37, "/bip37-test:1/", chain.size(), true));
            if (beforeVerack) {
                out.write(MessageFrame.encode(MAGIC, extraCommand, extraPayload));
            }
            send(out, new Message.Verack());
            if (!beforeVerack) {
                out.write(MessageFrame.encode(MAGIC, extraCommand, extraPayload));
            }
        } else if (m instanceof Message.Ping p) {
            send(out, new Message.Pong(p.nonce()));
        } else if (m instanceof Message.Unknown u && u.command().equals("getblocks")) {
            List<Message.InvItem> items = new ArrayList<>();
            for (Block b : chain) {
                items.add(new Message.InvItem(MSG_BLOCK, b.getHash()));
            }
            send(out, new Message.Inv(items));
        } else if (m instanceof Message.GetHeaders) {
            List<byte[]> headers = new ArrayList<>();
            for (Block b : chain) {
                headers.add(Arrays.copyOf(b.serialize(), 80));
            }
            send(out, new Message.Headers(headers));
        } else if (m instanceof Message.GetData g) {
            for (Message.InvItem i : g.items()) {
                Block b = find(i.hash());
                if (b != null && i.type() == MSG_FILTERED_BLOCK) {
                    out.write(MessageFrame.encode(MAGIC, "merkleblock", merkleBlock(b)));
                }
            }
        }
    }

    private Block find(Sha256Hash hash) {
        for (Block b : chain) {
            if (b.getHash().equals(hash)) {
                return b;
            }
        }
        return null;
    }

    private static byte[] merkleBlock(Block b) {
        List<Sha256Hash> txids = new ArrayList<>();
        for (Transaction tx : b.getTransactions()) {
            txids.add(tx.getTxId());
        }
        // No bit set: the partial tree proves the merkle root and matches nothing.
        byte[] bits = new byte[(txids.size() + 7) / 8];
        return new FilteredBlock(b.cloneAsHeader(), PartialMerkleTree.buildFromLeaves(bits, txids)).serialize();
    }

    private static void send(OutputStream out, Message m) throws IOException {
        out.write(MessageFrame.encode(MAGIC, m.command(), MessageCodec.encode(m)));
    }

    @Override
    public void close() throws IOException {
        server.close();
        executor.shutdownNow();
    }
}
