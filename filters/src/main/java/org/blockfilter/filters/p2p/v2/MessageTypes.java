package org.blockfilter.filters.p2p.v2;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.blockfilter.filters.p2p.MessageFrame;
import org.blockfilter.filters.wire.WireFormatException;

/**
 * BIP 324's message types inside a packet's contents: one byte, either a short id from the BIP's
 * table (1 {@code addr} .. 28 {@code addrv2}) or 0 followed by the 12-byte NUL-padded command as
 * in v1; the payload follows. Stateless.
 */
public final class MessageTypes {
    /**
     * The BIP's short message type ids, index = id (BIP 324, "v2 Bitcoin P2P message structure";
     * the same table as btcd 0.26's {@code wire.v2MessageIDs}, which omits 3, 4, 10 and 20).
     */
    private static final String[] SHORT_IDS = {
        null,
        "addr",
        "block",
        "blocktxn",
        "cmpctblock",
        "feefilter",
        "filteradd",
        "filterclear",
        "filterload",
        "getblocks",
        "getblocktxn",
        "getdata",
        "getheaders",
        "headers",
        "inv",
        "mempool",
        "merkleblock",
        "notfound",
        "ping",
        "pong",
        "sendcmpct",
        "tx",
        "getcfilters",
        "cfilter",
        "getcfheaders",
        "cfheaders",
        "getcfcheckpt",
        "cfcheckpt",
        "addrv2"
    };

    private static final Map<String, Integer> IDS = new HashMap<>();

    static {
        for (int i = 1; i < SHORT_IDS.length; i++) {
            IDS.put(SHORT_IDS[i], i);
        }
    }

    private static final int COMMAND_LENGTH = 12;

    private MessageTypes() {}

    /** A decoded message: its command (null for an unknown short id) and payload. */
    public record Decoded(String command, int shortId, byte[] payload) {}

    /** The packet contents of a message: its short id if it has one, else 0 and the 12-byte command. */
    public static byte[] encode(String command, byte[] payload) {
        return V2Cipher.concat(type(command), payload);
    }

    /** The bytes a message's contents start with: its short id if it has one, else 0 and the 12-byte command. */
    public static byte[] type(String command) {
        Integer id = IDS.get(command);
        if (id != null) {
            return new byte[] {(byte) (int) id};
        }
        byte[] cmd = command.getBytes(StandardCharsets.US_ASCII);
        if (cmd.length == 0 || cmd.length > COMMAND_LENGTH) {
            throw new IllegalArgumentException("a command is 1 to 12 ASCII bytes: " + command);
        }
        byte[] type = new byte[1 + COMMAND_LENGTH];
        System.arraycopy(cmd, 0, type, 1, cmd.length);
        return type;
    }

    /** Bytes the type takes before the payload for this command. */
    public static int typeLength(String command) {
        return IDS.containsKey(command) ? 1 : 1 + COMMAND_LENGTH;
    }

    /**
     * The command and payload of packet contents. An id the table does not have gives a null
     * command (the BIP: such messages are ignored).
     *
     * @throws WireFormatException for empty contents or a malformed 12-byte command
     */
    public static Decoded decode(byte[] contents) {
        return decode(contents, 0, contents.length);
    }

    /** {@link #decode(byte[])} of the contents {@code b[off, off + len)}; errors give offsets in {@code b}. */
    public static Decoded decode(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length); // else copyOfRange would pad a short array with zeros
        if (len == 0) {
            throw new WireFormatException("message type", null, off, "empty packet contents");
        }
        int id = b[off] & 0xff;
        if (id != 0) {
            String command = id < SHORT_IDS.length ? SHORT_IDS[id] : null;
            return new Decoded(command, id, Arrays.copyOfRange(b, off + 1, off + len));
        }
        if (len < 1 + COMMAND_LENGTH) {
            throw new WireFormatException(
                    "command", null, off + 1, "a long message type needs 12 bytes, " + (len - 1) + " present");
        }
        String command = MessageFrame.parseCommand(b, off + 1);
        return new Decoded(command, 0, Arrays.copyOfRange(b, off + 1 + COMMAND_LENGTH, off + len));
    }
}
