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

    long NODE_COMPACT_FILTERS = Chain.NODE_COMPACT_FILTERS;
    int MSG_TX = 1;
    int MSG_BLOCK = 2;
    int MSG_WITNESS_FLAG = 1 << 30;
    int MSG_WITNESS_BLOCK = MSG_BLOCK | MSG_WITNESS_FLAG;
    int MSG_WITNESS_TX = MSG_TX | MSG_WITNESS_FLAG;
    /** A transaction by wtxid, BIP 339: used between peers that both sent {@code wtxidrelay}. */
    int MSG_WTX = 5;

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
        public String command() {
            return "version";
        }
    }

    record Verack() implements Message {
        public String command() {
            return "verack";
        }
    }

    record Ping(long nonce) implements Message {
        public String command() {
            return "ping";
        }
    }

    record Pong(long nonce) implements Message {
        public String command() {
            return "pong";
        }
    }

    /** {@code getheaders}: locator hashes newest first, and a stop hash (zero for "as many as you can"). */
    record GetHeaders(int protocolVersion, List<Sha256Hash> locator, Sha256Hash stopHash) implements Message {
        public GetHeaders {
            locator = List.copyOf(locator);
        }

        public String command() {
            return "getheaders";
        }
    }

    /** {@code headers}: 80-byte block headers (each followed on the wire by a zero tx count). */
    record Headers(List<byte[]> headers) implements Message {
        public Headers {
            headers = List.copyOf(headers);
        }

        public String command() {
            return "headers";
        }
    }

    record InvItem(int type, Sha256Hash hash) {}

    record GetData(List<InvItem> items) implements Message {
        public GetData {
            items = List.copyOf(items);
        }

        public String command() {
            return "getdata";
        }
    }

    record NotFound(List<InvItem> items) implements Message {
        public NotFound {
            items = List.copyOf(items);
        }

        public String command() {
            return "notfound";
        }
    }

    record Inv(List<InvItem> items) implements Message {
        public Inv {
            items = List.copyOf(items);
        }

        public String command() {
            return "inv";
        }
    }

    /** A serialized block with witnesses. */
    record BlockMessage(byte[] raw) implements Message {
        public String command() {
            return "block";
        }
    }

    /** A serialized transaction. */
    record Tx(byte[] raw) implements Message {
        public String command() {
            return "tx";
        }
    }

    /** BIP 61 {@code reject} (btcd still sends it). {@code data} is the txid or block hash, when there is one. */
    record Reject(String rejectedCommand, int code, String reason, Sha256Hash data) implements Message {
        public String command() {
            return "reject";
        }
    }

    /** {@code startHeight} is the wire's uint32 (0 .. 2^32-1); a height above the stop is the server's to judge. */
    record GetCFilters(int filterType, long startHeight, Sha256Hash stopHash) implements Message {
        public String command() {
            return "getcfilters";
        }
    }

    record CFilter(int filterType, Sha256Hash blockHash, byte[] filter) implements Message {
        public String command() {
            return "cfilter";
        }
    }

    /** {@code startHeight} as in {@link GetCFilters}. */
    record GetCFHeaders(int filterType, long startHeight, Sha256Hash stopHash) implements Message {
        public String command() {
            return "getcfheaders";
        }
    }

    record CFHeaders(int filterType, Sha256Hash stopHash, Sha256Hash previousHeader, List<Sha256Hash> filterHashes)
            implements Message {
        public CFHeaders {
            filterHashes = List.copyOf(filterHashes);
        }

        public String command() {
            return "cfheaders";
        }
    }

    record GetCFCheckpt(int filterType, Sha256Hash stopHash) implements Message {
        public String command() {
            return "getcfcheckpt";
        }
    }

    record CFCheckpt(int filterType, Sha256Hash stopHash, List<Sha256Hash> headers) implements Message {
        public CFCheckpt {
            headers = List.copyOf(headers);
        }

        public String command() {
            return "cfcheckpt";
        }
    }

    /** Any other command; its payload is read (within the size cap) and dropped. */
    record Unknown(String command, int length) implements Message {}
}
