package org.blockfilter.filters.p2p.v2.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.blockfilter.filters.p2p.MessageFrame;
import org.blockfilter.filters.p2p.v2.EllSwift;
import org.blockfilter.filters.p2p.v2.MessageTypes;
import org.blockfilter.filters.p2p.v2.V2Cipher;
import org.blockfilter.filters.p2p.v2.V2Transport;

/**
 * What BIP 324 costs against v1, in one run: CPU time (this thread's, both ends: the sender's
 * framing or encryption and the receiver's checksum or decryption) and bytes on the wire, for a
 * 1,000-filter range ({@code cfilter} messages of the mainnet profile's typical filter size) and
 * for one block, plus the v2 handshake (two ElligatorSwift keys, two ECDHs, the key schedule).
 * Message decoding is the same for both transports and left out. Best of 5 rounds after a
 * warm-up. Arguments: [filter bytes (19000)] [block bytes (1240000)] [CSV file to write the rows
 * to, with the 1-minute load average when the run began and its UTC minute].
 *
 * <pre>./mvnw -B -q -pl filters -am test -DskipTests -Dbench=filters \
 *   -Dbench.main=org.blockfilter.filters.p2p.v2.bench.V2TransportBenchmark \
 *   -Dbench.args="19000 1240000 $PWD/docs/data/v2-transport.csv"</pre>
 */
public final class V2TransportBenchmark {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final byte[] MAGIC = MessageFrame.magicBytes(0xfabfb5daL);
    private static long sink;

    private V2TransportBenchmark() {}

    public static void main(String[] args) throws IOException {
        int filterBytes = args.length > 0 ? Integer.parseInt(args[0]) : 19_000;
        int blockBytes = args.length > 1 ? Integer.parseInt(args[1]) : 1_240_000;
        String load = String.format(
                Locale.ROOT,
                "%.2f",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        String date = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString().replace(":00Z", "");
        Random r = new Random(324);
        byte[] cfilter = new byte[1 + 32 + 3 + filterBytes]; // type, block hash, CompactSize, filter
        r.nextBytes(cfilter);
        byte[] block = new byte[blockBytes];
        r.nextBytes(block);

        double[] range = {
            run("range_1000_filters", "v1", () -> v1(cfilter, 1000, "cfilter")),
            run("range_1000_filters", "v2", () -> v2(cfilter, 1000, "cfilter"))
        };
        double[] blk = {run("block", "v1", () -> v1(block, 1, "block")), run("block", "v2", () -> v2(block, 1, "block"))
        };
        double hs = run("handshake", "v2", V2TransportBenchmark::handshake);
        // Per connection and direction: key, garbage (uniform 0..4095, 2047.5 on average), terminator, version packet.
        double handshakeBytes = 64 + 2047.5 + V2Cipher.TERMINATOR_LENGTH + V2Cipher.EXPANSION;
        List<String> rows = List.of(
                row(
                        "range_1000_filters",
                        "v1",
                        range[0],
                        1000L * (MessageFrame.HEADER_LENGTH + cfilter.length),
                        1000L * cfilter.length),
                row(
                        "range_1000_filters",
                        "v2",
                        range[1],
                        1000L * V2Transport.wireLength("cfilter", cfilter.length),
                        1000L * cfilter.length),
                row("block", "v1", blk[0], MessageFrame.HEADER_LENGTH + block.length, block.length),
                row("block", "v2", blk[1], V2Transport.wireLength("block", block.length), block.length),
                row("handshake", "v2", hs, Math.round(2 * handshakeBytes), 0));
        System.out.println(HEADER);
        rows.forEach(System.out::println);
        System.out.printf(
                Locale.ROOT,
                "# v2/v1 CPU: range %.2fx, block %.2fx; v2 wire bytes: range %+d, block %+d; handshake %.2f ms CPU, ~%.0f bytes both ways; load %s at the start%n",
                range[1] / range[0],
                blk[1] / blk[0],
                1000L
                        * (V2Transport.wireLength("cfilter", cfilter.length)
                                - MessageFrame.HEADER_LENGTH
                                - cfilter.length),
                V2Transport.wireLength("block", block.length) - MessageFrame.HEADER_LENGTH - block.length,
                hs,
                2 * handshakeBytes,
                load);
        if (args.length > 2) {
            StringBuilder csv = new StringBuilder(HEADER).append(",load_1min,date_utc\n");
            rows.forEach(row -> csv.append(row)
                    .append(',')
                    .append(load)
                    .append(',')
                    .append(date)
                    .append('\n'));
            Files.writeString(Path.of(args[2]), csv);
            System.out.println("# rows written to " + args[2]);
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    private static final String HEADER = "case,transport,cpu_ms,wire_bytes,payload_bytes";

    private static String row(String name, String transport, double ms, long wire, long payload) {
        return String.format(Locale.ROOT, "%s,%s,%.3f,%d,%d", name, transport, ms, wire, payload);
    }

    /** Best of 5 rounds of this thread's CPU time, in ms, after one warm-up round. */
    private static double run(String name, String transport, Runnable body) {
        body.run();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long t0 = THREADS.getCurrentThreadCpuTime();
            body.run();
            best = Math.min(best, THREADS.getCurrentThreadCpuTime() - t0);
        }
        return best / 1e6;
    }

    /** v1: the frame (double-SHA256 checksum) written, then its header parsed and the checksum checked. */
    private static void v1(byte[] payload, int count, String command) {
        for (int i = 0; i < count; i++) {
            byte[] frame = MessageFrame.encode(MAGIC, command, payload);
            MessageFrame.Header h = MessageFrame.parseHeader(MAGIC, Arrays.copyOf(frame, MessageFrame.HEADER_LENGTH));
            byte[] body = Arrays.copyOfRange(frame, MessageFrame.HEADER_LENGTH, frame.length);
            byte[] sum = Arrays.copyOf(org.bitcoinj.base.Sha256Hash.hashTwice(body), 4);
            sink += Arrays.equals(sum, h.checksum()) ? body.length : 0;
        }
    }

    private static final byte[] SECRET = new byte[32];

    /**
     * v2, as {@code V2Transport} does it: type and payload encrypted into the packet (ChaCha20-Poly1305,
     * FSChaCha20 length), then the length and the packet decrypted where they were read and the type read.
     */
    private static void v2(byte[] payload, int count, String command) {
        V2Cipher sender = new V2Cipher(SECRET, MAGIC, true);
        V2Cipher receiver = new V2Cipher(SECRET, MAGIC, false);
        byte[] none = new byte[0];
        for (int i = 0; i < count; i++) {
            byte[] packet = sender.encrypt(MessageTypes.type(command), payload, none, false);
            int len = receiver.decryptLength(Arrays.copyOf(packet, V2Cipher.LENGTH_FIELD_LENGTH));
            byte[] rest = Arrays.copyOfRange(packet, V2Cipher.LENGTH_FIELD_LENGTH, packet.length);
            if (receiver.decryptInPlace(rest, V2Cipher.remainderLength(len), none)) {
                sink += MessageTypes.decode(rest, V2Cipher.HEADER_LENGTH, len).payload().length;
            }
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Both ends' key generation, ECDH with the tagged hash and key schedule. */
    private static void handshake() {
        EllSwift.KeyPair a = EllSwift.create(RANDOM);
        EllSwift.KeyPair b = EllSwift.create(RANDOM);
        byte[] sa = EllSwift.sharedSecret(a.privateKey(), b.encoded(), a.encoded(), true);
        byte[] sb = EllSwift.sharedSecret(b.privateKey(), a.encoded(), b.encoded(), false);
        sink += new V2Cipher(sa, MAGIC, true).sessionId()[0] + new V2Cipher(sb, MAGIC, false).sessionId()[0];
    }
}
