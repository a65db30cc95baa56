package org.blockfilter.filters.p2p;

import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;

/**
 * The P2P messages the light client sends or understands. Immutable values; byte arrays are
 * the caller's to not mutate (records with arrays compare by reference, so tests compare
 * encodings). Anything else a peer sends decodes as {@link Unknown} and is ignored.
 */
public sealed interface Message {

    /** The 12-byte command name on the wire. */
    String command();

    /** BIP 157 / 144 service bits ({@link Chain} defines them) and the inventory types we use. */
    long NODE_WITNESS = Chain.NODE_WITNESS;

    /**
     * The BIP 157 service bit: the peer serves compact filters ({@code getcfilters}, {@code getcfheaders}, {@code
     * getcfcheckpt}).
     */
    long NODE_COMPACT_FILTERS = Chain.NODE_COMPACT_FILTERS;
    /** Inventory type of a transaction by txid. */
    int MSG_TX = 1;
    /** Inventory type of a block (without witnesses). */
    int MSG_BLOCK = 2;
    /** BIP 144 flag OR-ed into an inventory type to ask for the object with its witnesses. */
    int MSG_WITNESS_FLAG = 1 << 30;
    /** Inventory type of a block with its witnesses, the one {@code getdata} must use to fetch a segwit block whole. */
    int MSG_WITNESS_BLOCK = MSG_BLOCK | MSG_WITNESS_FLAG;
    /** Inventory type of a transaction with its witness. */
    int MSG_WITNESS_TX = MSG_TX | MSG_WITNESS_FLAG;
    /** A transaction by wtxid, BIP 339: used between peers that both sent {@code wtxidrelay}. */
    int MSG_WTX = 5;

    /**
     * {@code version}: the handshake's first message, with the sender's protocol version, services, best height and
     * whether it wants transaction relay.
     */
    record Version(
            int protocolVersion,
            long services,
            long timestamp,
            long receiverServices,
            long nonce,
            String userAgent,
            int startHeight,
            boolean relay)
            implements Message {
        @Override
        public String command() {
            return "version";
        }
    }

    /** {@code verack}: acknowledges the peer's {@code version}; the handshake is done when both sides have sent it. */
    record Verack() implements Message {
        @Override
        public String command() {
            return "verack";
        }
    }

    /** {@code ping}: asks the peer to answer with a {@code pong} carrying the same nonce. */
    record Ping(long nonce) implements Message {
        @Override
        public String command() {
            return "ping";
        }
    }

    /** {@code pong}: the answer to a {@code ping}, with its nonce. */
    record Pong(long nonce) implements Message {
        @Override
        public String command() {
            return "pong";
        }
    }

    /** {@code getheaders}: locator hashes newest first, and a stop hash (zero for "as many as you can"). */
    record GetHeaders(int protocolVersion, List<Sha256Hash> locator, Sha256Hash stopHash) implements Message {
        public GetHeaders {
            locator = List.copyOf(locator);
        }

        @Override
        public String command() {
            return "getheaders";
        }
    }

    /** {@code headers}: 80-byte block headers (each followed on the wire by a zero tx count). */
    record Headers(List<byte[]> headers) implements Message {
        public Headers {
            headers = List.copyOf(headers);
        }

        @Override
        public String command() {
            return "headers";
        }
    }

    /**
     * One inventory entry: an inventory type ({@link #MSG_BLOCK}, {@link #MSG_WITNESS_TX}, ...) and the object's hash.
     */
    record InvItem(int type, Sha256Hash hash) {}

    /**
     * {@code getdata}: asks for the blocks or transactions the items name; the peer answers each with the object or
     * lists it in {@code notfound}.
     */
    record GetData(List<InvItem> items) implements Message {
        public GetData {
            items = List.copyOf(items);
        }

        @Override
        public String command() {
            return "getdata";
        }
    }

    /** {@code notfound}: the items of a {@code getdata} the peer does not have. */
    record NotFound(List<InvItem> items) implements Message {
        public NotFound {
            items = List.copyOf(items);
        }

        @Override
        public String command() {
            return "notfound";
        }
    }

    /** {@code inv}: announces blocks or transactions the peer has, by inventory item. */
    record Inv(List<InvItem> items) implements Message {
        public Inv {
            items = List.copyOf(items);
        }

        @Override
        public String command() {
            return "inv";
        }
    }

    /** A serialized block with witnesses. */
    record BlockMessage(byte[] raw) implements Message {
        @Override
        public String command() {
            return "block";
        }
    }

    /** A serialized transaction. */
    record Tx(byte[] raw) implements Message {
        @Override
        public String command() {
            return "tx";
        }
    }

    /** BIP 61 {@code reject} (btcd still sends it). {@code data} is the txid or block hash, when there is one. */
    record Reject(String rejectedCommand, int code, String reason, Sha256Hash data) implements Message {
        @Override
        public String command() {
            return "reject";
        }
    }

    /** {@code startHeight} is the wire's uint32 (0 .. 2^32-1); a height above the stop is the server's to judge. */
    record GetCFilters(int filterType, long startHeight, Sha256Hash stopHash) implements Message {
        @Override
        public String command() {
            return "getcfilters";
        }
    }

    /** {@code cfilter} (BIP 157): one block's filter of the given type, as the serialized Golomb-coded set. */
    record CFilter(int filterType, Sha256Hash blockHash, byte[] filter) implements Message {
        @Override
        public String command() {
            return "cfilter";
        }
    }

    /** {@code startHeight} as in {@link GetCFilters}. */
    record GetCFHeaders(int filterType, long startHeight, Sha256Hash stopHash) implements Message {
        @Override
        public String command() {
            return "getcfheaders";
        }
    }

    /**
     * {@code cfheaders} (BIP 157): the filter hashes of a range ending at the stop hash, and the filter header before
     * the range, from which the range's headers follow.
     */
    record CFHeaders(int filterType, Sha256Hash stopHash, Sha256Hash previousHeader, List<Sha256Hash> filterHashes)
            implements Message {
        public CFHeaders {
            filterHashes = List.copyOf(filterHashes);
        }

        @Override
        public String command() {
            return "cfheaders";
        }
    }

    /** {@code getcfcheckpt} (BIP 157): asks for the filter header at every 1,000th height up to the stop hash. */
    record GetCFCheckpt(int filterType, Sha256Hash stopHash) implements Message {
        @Override
        public String command() {
            return "getcfcheckpt";
        }
    }

    /** {@code cfcheckpt} (BIP 157): the filter headers at heights 1,000, 2,000, ... up to the stop hash. */
    record CFCheckpt(int filterType, Sha256Hash stopHash, List<Sha256Hash> headers) implements Message {
        public CFCheckpt {
            headers = List.copyOf(headers);
        }

        @Override
        public String command() {
            return "cfcheckpt";
        }
    }

    /** Any other command; its payload is read (within the size cap) and dropped. */
    record Unknown(String command, int length) implements Message {}
}
