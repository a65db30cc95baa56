package org.blockfilter.filters.p2p.v2.bench;

import java.lang.management.ManagementFactory;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.blockfilter.filters.bench.CpuTimeBenchmark;
import org.blockfilter.filters.p2p.MessageFrame;
import org.blockfilter.filters.p2p.v2.MessageTypes;
import org.blockfilter.filters.p2p.v2.V2Cipher;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.engines.ChaCha7539Engine;
import org.bouncycastle.crypto.macs.Poly1305;
import org.bouncycastle.crypto.modes.ChaCha20Poly1305;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;
import org.bouncycastle.util.Pack;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Where BIP 324's CPU goes, piece by piece, and which ChaCha20-Poly1305 to use: BouncyCastle's
 * engines against the JDK's own (SunJCE) on the same bytes in the same run. One operation is one
 * packet through both ends, as in {@link V2TransportBenchmark}: {@code payload} is a cfilter
 * message of the mainnet profile's filter size (19,036 bytes) or a 1.24 MB block.
 *
 * <ul>
 *   <li>{@code chacha20*}, {@code poly1305Bc}: the two primitives alone over the packet's bytes,
 *       twice (the sender's pass and the receiver's); the JDK has no public Poly1305.
 *   <li>{@code aead*}: RFC 8439 ChaCha20-Poly1305 encrypt then decrypt and verify into buffers
 *       allocated once, the floor for a packet without copies.
 *   <li>{@code length*} (no payload): one 3-byte length through a continuing ChaCha20 keystream,
 *       sender and receiver, the length cipher's per-message cost.
 *   <li>{@code v2Cipher}: the project's code, {@link MessageTypes} and {@link V2Cipher} as {@code
 *       V2Transport} calls them: type and payload encrypted into the packet, length and packet
 *       decrypted where they were read, type read and payload handed out. {@code v2CipherCopying}
 *       does the same through the calls that copy (contents built first, packet decrypted into a
 *       new array, contents copied out). Against {@code aead*} they show what copies and
 *       allocations cost.
 * </ul>
 *
 * <pre>./mvnw -B -q -pl filters -am test -DskipTests -Dbench=filters \
 *   -Dbench.args="V2CipherBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc"</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class V2CipherBenchmark {
    private static final byte[] MAGIC = MessageFrame.magicBytes(0xfabfb5daL);
    private static final int TAG = 16;

    /** One case: one operation, its result kept so the JIT cannot drop it. */
    private interface Case {
        long run() throws Exception;
    }

    /**
     * The same cases timed by this thread's CPU time instead of JMH's wall clock, which a loaded
     * machine disturbs less ({@link CpuTimeBenchmark#report}, as for the filter cases).
     *
     * <pre>./mvnw -B -q -pl filters -am test -DskipTests -Dbench=filters \
     *   -Dbench.main=org.blockfilter.filters.p2p.v2.bench.V2CipherBenchmark -Dbench.args=</pre>
     */
    public static void main(String[] args) throws Exception {
        System.out.printf(
                Locale.ROOT,
                "# thread CPU time; load %.2f at the start%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        V2CipherBenchmark b = new V2CipherBenchmark();
        for (int payload : new int[] {19_036, 1_240_000}) {
            Packets s = new Packets();
            s.payload = payload;
            s.setUp();
            Map<String, Case> cases = new LinkedHashMap<>();
            cases.put("chacha20Bc", () -> b.chacha20Bc(s));
            cases.put("chacha20Jdk", () -> b.chacha20Jdk(s));
            cases.put("poly1305Bc", () -> b.poly1305Bc(s));
            cases.put("aeadBc", () -> b.aeadBc(s));
            cases.put("aeadJdk", () -> b.aeadJdk(s));
            cases.put("aeadJdkChaChaBcPoly", () -> b.aeadJdkChaChaBcPoly(s));
            cases.put("v2Cipher", () -> b.v2Cipher(s));
            cases.put("v2CipherCopying", () -> b.v2CipherCopying(s));
            cases.forEach((name, op) -> CpuTimeBenchmark.report(name + " payload=" + payload, 1, unchecked(op)));
        }
        Lengths l = new Lengths();
        l.setUp();
        CpuTimeBenchmark.report("lengthBc", 1, unchecked(() -> b.lengthBc(l)));
        CpuTimeBenchmark.report("lengthJdk", 1, unchecked(() -> b.lengthJdk(l)));
    }

    private static LongSupplier unchecked(Case op) {
        return () -> {
            try {
                return op.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** One packet's bytes and both ends' ciphers. */
    @State(Scope.Benchmark)
    public static class Packets {
        @Param({"19036", "1240000"})
        public int payload;

        byte[] message;
        byte[] plain;
        byte[] sealed;
        byte[] opened;
        final byte[] key = new byte[32];
        final byte[] aad = new byte[0];
        long nonceCounter;

        final ChaCha7539Engine bcEngine = new ChaCha7539Engine();
        final Poly1305 bcPoly = new Poly1305();
        final ChaCha20Poly1305 bcAead = new ChaCha20Poly1305();
        Cipher jdkStream;
        Cipher jdkStreamRecv;
        Cipher jdkAeadSend;
        Cipher jdkAeadRecv;
        SecretKeySpec jdkKey;

        V2Cipher sender;
        V2Cipher receiver;

        @Setup
        public void setUp() throws GeneralSecurityException {
            Random r = new Random(324);
            r.nextBytes(key);
            message = new byte[payload];
            r.nextBytes(message);
            plain = new byte[V2Cipher.HEADER_LENGTH + 1 + payload]; // header, short type id, payload
            r.nextBytes(plain);
            sealed = new byte[plain.length + TAG];
            opened = new byte[plain.length];
            jdkStream = Cipher.getInstance("ChaCha20");
            jdkStreamRecv = Cipher.getInstance("ChaCha20");
            jdkAeadSend = Cipher.getInstance("ChaCha20-Poly1305");
            jdkAeadRecv = Cipher.getInstance("ChaCha20-Poly1305");
            jdkKey = new SecretKeySpec(key, "ChaCha20");
            sender = new V2Cipher(key, MAGIC, true);
            receiver = new V2Cipher(key, MAGIC, false);
            byte[] nonce = nextNonce();
            jdkAeadSend.init(Cipher.ENCRYPT_MODE, jdkKey, new IvParameterSpec(nonce));
            byte[] expected = jdkAeadSend.doFinal(plain);
            sealComposed(this, nonce, plain, plain.length, sealed);
            if (!Arrays.equals(expected, sealed)) {
                throw new IllegalStateException("the composed AEAD differs from the JDK's");
            }
        }

        /** A nonce not used before in this run (the JDK refuses to re-initialise with the last one). */
        byte[] nextNonce() {
            long n = ++nonceCounter;
            byte[] nonce = new byte[12];
            for (int i = 0; i < 8; i++) {
                nonce[4 + i] = (byte) (n >>> (8 * i));
            }
            return nonce;
        }
    }

    @Benchmark
    public byte chacha20Bc(Packets s) {
        for (int end = 0; end < 2; end++) {
            s.bcEngine.init(true, new ParametersWithIV(new KeyParameter(s.key), s.nextNonce()));
            s.bcEngine.processBytes(s.plain, 0, s.plain.length, s.opened, 0);
        }
        return s.opened[s.opened.length - 1];
    }

    @Benchmark
    public byte chacha20Jdk(Packets s) throws GeneralSecurityException {
        for (int end = 0; end < 2; end++) {
            s.jdkStream.init(Cipher.ENCRYPT_MODE, s.jdkKey, new ChaCha20ParameterSpec(s.nextNonce(), 1));
            s.jdkStream.update(s.plain, 0, s.plain.length, s.opened, 0);
        }
        return s.opened[s.opened.length - 1];
    }

    @Benchmark
    public byte poly1305Bc(Packets s) {
        for (int end = 0; end < 2; end++) {
            s.bcPoly.init(new KeyParameter(s.key));
            s.bcPoly.update(s.plain, 0, s.plain.length);
            s.bcPoly.doFinal(s.sealed, 0);
        }
        return s.sealed[0];
    }

    @Benchmark
    public byte aeadBc(Packets s) throws InvalidCipherTextException {
        byte[] nonce = s.nextNonce();
        s.bcAead.init(true, new AEADParameters(new KeyParameter(s.key), TAG * 8, nonce, s.aad));
        int n = s.bcAead.processBytes(s.plain, 0, s.plain.length, s.sealed, 0);
        s.bcAead.doFinal(s.sealed, n);
        s.bcAead.init(false, new AEADParameters(new KeyParameter(s.key), TAG * 8, nonce, s.aad));
        n = s.bcAead.processBytes(s.sealed, 0, s.sealed.length, s.opened, 0);
        s.bcAead.doFinal(s.opened, n);
        return s.opened[s.opened.length - 1];
    }

    @Benchmark
    public byte aeadJdk(Packets s) throws GeneralSecurityException {
        IvParameterSpec nonce = new IvParameterSpec(s.nextNonce());
        s.jdkAeadSend.init(Cipher.ENCRYPT_MODE, s.jdkKey, nonce);
        s.jdkAeadSend.updateAAD(s.aad);
        s.jdkAeadSend.doFinal(s.plain, 0, s.plain.length, s.sealed, 0);
        s.jdkAeadRecv.init(Cipher.DECRYPT_MODE, s.jdkKey, nonce);
        s.jdkAeadRecv.updateAAD(s.aad);
        s.jdkAeadRecv.doFinal(s.sealed, 0, s.sealed.length, s.opened, 0);
        return s.opened[s.opened.length - 1];
    }

    /**
     * RFC 8439's construction from the primitives of two libraries: the JDK's ChaCha20 (block 0
     * gives the one-time Poly1305 key, the stream goes on from block 1) and BouncyCastle's
     * Poly1305 over aad, ciphertext and their lengths, each padded to 16 bytes.
     */
    @Benchmark
    public byte aeadJdkChaChaBcPoly(Packets s) throws GeneralSecurityException {
        byte[] nonce = s.nextNonce();
        sealComposed(s, nonce, s.plain, s.plain.length, s.sealed);
        if (!openComposed(s, nonce, s.sealed, s.plain.length, s.opened)) {
            throw new IllegalStateException("the tag does not verify");
        }
        return s.opened[s.opened.length - 1];
    }

    private static final byte[] ZEROS = new byte[64];

    /** Ciphertext of {@code in[0, len)} then the tag into {@code out}. */
    private static void sealComposed(Packets s, byte[] nonce, byte[] in, int len, byte[] out)
            throws GeneralSecurityException {
        byte[] oneTimeKey = startStream(s.jdkStream, s, nonce);
        s.jdkStream.update(in, 0, len, out, 0);
        poly(s, oneTimeKey, out, len, out, len);
    }

    /** The plaintext of {@code in[0, len)} into {@code out} if the tag after it verifies. */
    private static boolean openComposed(Packets s, byte[] nonce, byte[] in, int len, byte[] out)
            throws GeneralSecurityException {
        byte[] oneTimeKey = startStream(s.jdkStreamRecv, s, nonce);
        byte[] tag = new byte[TAG];
        poly(s, oneTimeKey, in, len, tag, 0);
        if (!MessageDigest.isEqual(tag, Arrays.copyOfRange(in, len, len + TAG))) {
            return false;
        }
        s.jdkStreamRecv.update(in, 0, len, out, 0);
        return true;
    }

    /** Keys one end's stream for {@code nonce} and returns block 0, the stream then at block 1. */
    private static byte[] startStream(Cipher stream, Packets s, byte[] nonce) throws GeneralSecurityException {
        stream.init(Cipher.ENCRYPT_MODE, s.jdkKey, new ChaCha20ParameterSpec(nonce, 0));
        byte[] block0 = new byte[64];
        stream.update(ZEROS, 0, 64, block0, 0);
        return block0;
    }

    private static void poly(Packets s, byte[] block0, byte[] ct, int len, byte[] tag, int tagOff) {
        s.bcPoly.init(new KeyParameter(block0, 0, 32));
        s.bcPoly.update(s.aad, 0, s.aad.length);
        s.bcPoly.update(ZEROS, 0, -s.aad.length & 15);
        s.bcPoly.update(ct, 0, len);
        s.bcPoly.update(ZEROS, 0, -len & 15);
        byte[] lengths = new byte[16];
        Pack.longToLittleEndian(s.aad.length, lengths, 0);
        Pack.longToLittleEndian(len, lengths, 8);
        s.bcPoly.update(lengths, 0, 16);
        s.bcPoly.doFinal(tag, tagOff);
    }

    @Benchmark
    public int v2Cipher(Packets s) {
        byte[] packet = s.sender.encrypt(MessageTypes.type("cfilter"), s.message, s.aad, false);
        int len = s.receiver.decryptLength(Arrays.copyOf(packet, V2Cipher.LENGTH_FIELD_LENGTH));
        byte[] rest = Arrays.copyOfRange(packet, V2Cipher.LENGTH_FIELD_LENGTH, packet.length);
        int total = V2Cipher.remainderLength(len);
        if (!s.receiver.decryptInPlace(rest, total, s.aad)) {
            throw new IllegalStateException("the packet does not authenticate");
        }
        return MessageTypes.decode(rest, V2Cipher.HEADER_LENGTH, len).payload().length;
    }

    /** {@link #v2Cipher} through the copying calls: contents built, the packet decrypted into a copy, then its contents. */
    @Benchmark
    public int v2CipherCopying(Packets s) {
        byte[] packet = s.sender.encrypt(MessageTypes.encode("cfilter", s.message), s.aad, false);
        int len = s.receiver.decryptLength(Arrays.copyOf(packet, V2Cipher.LENGTH_FIELD_LENGTH));
        byte[] rest = Arrays.copyOfRange(packet, V2Cipher.LENGTH_FIELD_LENGTH, packet.length);
        V2Cipher.Packet p = s.receiver.decrypt(rest, V2Cipher.remainderLength(len), s.aad);
        return MessageTypes.decode(p.contents()).payload().length;
    }

    /** The length cipher's state: one keystream per end, running on across messages. */
    @State(Scope.Benchmark)
    public static class Lengths {
        final byte[] field = {1, 2, 3};
        final byte[] out = new byte[3];
        final ChaCha7539Engine bcSend = new ChaCha7539Engine();
        final ChaCha7539Engine bcRecv = new ChaCha7539Engine();
        Cipher jdkSend;
        Cipher jdkRecv;

        @Setup
        public void setUp() throws GeneralSecurityException {
            byte[] key = new byte[32];
            byte[] nonce = new byte[12];
            // One keystream for the whole run: 2^32 blocks of 64 bytes outlast any run's 3-byte fields.
            bcSend.init(true, new ParametersWithIV(new KeyParameter(key), nonce));
            bcRecv.init(false, new ParametersWithIV(new KeyParameter(key), nonce));
            SecretKeySpec k = new SecretKeySpec(key, "ChaCha20");
            jdkSend = Cipher.getInstance("ChaCha20");
            jdkSend.init(Cipher.ENCRYPT_MODE, k, new ChaCha20ParameterSpec(nonce, 0));
            jdkRecv = Cipher.getInstance("ChaCha20");
            jdkRecv.init(Cipher.DECRYPT_MODE, k, new ChaCha20ParameterSpec(nonce, 0));
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public byte lengthBc(Lengths s) {
        s.bcSend.processBytes(s.field, 0, 3, s.out, 0);
        s.bcRecv.processBytes(s.out, 0, 3, s.out, 0);
        return s.out[0];
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public byte lengthJdk(Lengths s) throws GeneralSecurityException {
        s.jdkSend.update(s.field, 0, 3, s.out, 0);
        s.jdkRecv.update(s.out, 0, 3, s.out, 0);
        return s.out[0];
    }
}
