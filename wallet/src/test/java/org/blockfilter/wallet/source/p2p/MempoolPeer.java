package org.blockfilter.wallet.source.p2p;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.filters.p2p.MessageFrame;

/**
 * A test node with a mempool on 127.0.0.1 (free port) that relays transactions the way one of
 * three implementations does, each connection served on its own thread:
 *
 * <ul>
 *   <li>{@link Style#BTCD}: asks for what is announced, accepts unrequested {@code tx} too, serves
 *       any mempool transaction by {@code getdata}, and sends a BIP 61 {@code reject} for one it refuses.
 *   <li>{@link Style#BCOIN}: as btcd, but disconnects a peer that sends a {@code tx} it did not
 *       ask for ("Peer sent unrequested tx") and sends no {@code reject}.
 *   <li>{@link Style#CORE}: sends {@code wtxidrelay} and, with a peer that sent one too, ignores
 *       {@code MSG_TX} announcements; serves a transaction by {@code getdata} only to a connection
 *       it announced it to, and ignores transaction {@code getdata} from a peer that set relay=false;
 *       announces what it accepts to its other relay=true connections; sends no {@code reject}.
 * </ul>
 */
final class MempoolPeer implements AutoCloseable {
    enum Style {
        BTCD,
        BCOIN,
        CORE
    }

    private final Style style;
    private final boolean asks;
    private final boolean refuses;
    private final long services;
    private final ServerSocket server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Map<Sha256Hash, byte[]> mempool = new ConcurrentHashMap<>();
    private final List<Conn> conns = new CopyOnWriteArrayList<>();
    final List<Message.InvItem> announcedToUs = new CopyOnWriteArrayList<>();
    final AtomicInteger unrequestedTx = new AtomicInteger();
    final AtomicInteger wtxidRelayBeforeVerack = new AtomicInteger();
    /** Ask for announced transactions with MSG_TX (no witnesses), as a pre-segwit node does. */
    volatile boolean asksWithoutWitness;
    /** The transactions received, as sent. */
    final List<byte[]> received = new CopyOnWriteArrayList<>();

    /**
     * @param asks whether it asks for announced transactions at all
     * @param refuses whether it refuses every transaction (else it accepts every one)
     */
    MempoolPeer(Style style, boolean asks, boolean refuses, long services) throws IOException {
        this.style = style;
        this.asks = asks;
        this.refuses = refuses;
        this.services = services;
        this.server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        executor.submit(this::accept);
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    boolean holds(Sha256Hash txid) {
        return mempool.containsKey(txid);
    }

    void hold(byte[] raw) {
        mempool.put(Transaction.read(ByteBuffer.wrap(raw)).getTxId(), raw.clone());
    }

    private Void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Conn c = new Conn(s);
                conns.add(c);
                executor.submit(c::serve);
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }

    private final class Conn {
        private final Socket socket;
        private final OutputStream out;
        private boolean relay;
        private boolean wtxid;
        private boolean verack;
        private final Set<Sha256Hash> requested = new HashSet<>();
        private final Set<Sha256Hash> announced = ConcurrentHashMap.newKeySet();

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
        }

        synchronized void send(String command, byte[] payload) throws IOException {
            out.write(MessageFrame.encode(FakePeer.MAGIC, command, payload));
            out.flush();
        }

        void send(Message m) throws IOException {
            send(m.command(), MessageCodec.encode(m));
        }

        Void serve() {
            try (socket) {
                InputStream in = socket.getInputStream();
                while (true) {
                    if (!handle(MessageFrame.read(in, FakePeer.MAGIC).decode())) {
                        return null;
                    }
                }
            } catch (IOException | RuntimeException e) {
                return null;
            } finally {
                conns.remove(this);
            }
        }

        /** False to disconnect. */
        private boolean handle(Message m) throws IOException {
            if (m instanceof Message.Version v) {
                relay = v.relay();
                send(new Message.Version(70016, services, 0, 0, 7, "/mempool-" + style + ":1/", 0, true));
                if (style == Style.CORE) {
                    send("wtxidrelay", new byte[0]);
                }
                send(new Message.Verack());
            } else if (m instanceof Message.Unknown u && u.command().equals("wtxidrelay") && !verack) {
                wtxidRelayBeforeVerack.incrementAndGet();
                wtxid = style == Style.CORE;
            } else if (m instanceof Message.Verack) {
                verack = true;
            } else if (m instanceof Message.Ping p) {
                send(new Message.Pong(p.nonce()));
            } else if (m instanceof Message.Inv inv) {
                inv(inv);
            } else if (m instanceof Message.Tx t) {
                return tx(t.raw());
            } else if (m instanceof Message.GetData g) {
                getData(g);
            }
            return true;
        }

        private void inv(Message.Inv inv) throws IOException {
            List<Message.InvItem> want = new ArrayList<>();
            for (Message.InvItem i : inv.items()) {
                announcedToUs.add(i);
                if (style == Style.CORE && (wtxid ? i.type() != Message.MSG_WTX : i.type() == Message.MSG_WTX)) {
                    continue; // Core ignores the kind of announcement not negotiated
                }
                if (asks && !mempool.containsKey(i.hash())) {
                    requested.add(i.hash());
                    int type = i.type() == Message.MSG_WTX
                            ? Message.MSG_WTX
                            : asksWithoutWitness ? Message.MSG_TX : Message.MSG_WITNESS_TX;
                    want.add(new Message.InvItem(type, i.hash()));
                }
            }
            if (!want.isEmpty()) {
                send(new Message.GetData(want));
            }
        }

        private boolean tx(byte[] raw) throws IOException {
            received.add(raw.clone());
            Transaction tx = Transaction.read(ByteBuffer.wrap(raw));
            boolean wasAsked = requested.remove(tx.getTxId()) | requested.remove(tx.getWTxId());
            if (!wasAsked) {
                unrequestedTx.incrementAndGet();
                if (style == Style.BCOIN) {
                    return false; // "Peer sent unrequested tx"
                }
            }
            if (refuses) {
                if (style == Style.BTCD) {
                    send(new Message.Reject("tx", 0x42, "transaction already spent", tx.getTxId()));
                }
                return true;
            }
            mempool.put(tx.getTxId(), raw.clone());
            if (style == Style.CORE) {
                for (Conn other : conns) {
                    if (other != this && other.relay) {
                        other.announce(tx);
                    }
                }
            }
            return true;
        }

        private void announce(Transaction tx) throws IOException {
            announced.add(tx.getTxId());
            announced.add(tx.getWTxId());
            send(new Message.Inv(List.of(
                    wtxid
                            ? new Message.InvItem(Message.MSG_WTX, tx.getWTxId())
                            : new Message.InvItem(Message.MSG_TX, tx.getTxId()))));
        }

        private void getData(Message.GetData g) throws IOException {
            List<Message.InvItem> missing = new ArrayList<>();
            for (Message.InvItem i : g.items()) {
                if (style == Style.CORE && !relay) {
                    continue; // Core: no transaction getdata from a peer that asked not to get transactions
                }
                byte[] raw = find(i.hash());
                if (raw != null && (style != Style.CORE || announced.contains(i.hash()))) {
                    send(new Message.Tx(raw));
                } else {
                    missing.add(i);
                }
            }
            if (!missing.isEmpty()) {
                send(new Message.NotFound(missing));
            }
        }

        private byte[] find(Sha256Hash id) {
            byte[] raw = mempool.get(id);
            if (raw != null) {
                return raw;
            }
            for (byte[] r : mempool.values()) {
                if (Transaction.read(ByteBuffer.wrap(r)).getWTxId().equals(id)) {
                    return r;
                }
            }
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Conn c : conns) {
            c.socket.close();
        }
        executor.shutdownNow();
    }
}
