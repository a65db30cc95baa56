package org.blockfilter.regtest.scenario.internal;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.crypto.ECKey;

/** Derives scenario keys from the seed: key {@code index} of wallet {@code wallet}. Stateless. */
public final class Keys {
    private static final BigInteger N = ECKey.ecDomainParameters().getN();

    private Keys() {}

    public static ECKey derive(long seed, int wallet, int index) {
        byte[] material = ByteBuffer.allocate(32)
                .put("blockfilter-scenario".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, 20)
                .putLong(seed)
                .putInt(wallet)
                .array();
        byte[] withIndex = ByteBuffer.allocate(36).put(material).putInt(index).array();
        BigInteger d = new BigInteger(1, Sha256Hash.hash(withIndex))
                .mod(N.subtract(BigInteger.ONE))
                .add(BigInteger.ONE);
        return ECKey.fromPrivate(d, true);
    }
}
