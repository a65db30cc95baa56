package org.blockfilter.server.index;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.mainnet.ProfileChain;

/**
 * A {@link BlockSource} over a generated mainnet-profile chain (docs/mainnet-profile.md), as a
 * node that has it would serve it: the best chain ends at the served height, which may be moved
 * (to index the ramp and the steady phase separately), and every block in the file is known by
 * hash. Thread-safe.
 */
public final class MainnetProfileBlockSource implements BlockSource {
    private final ProfileChain chain;
    private final AtomicInteger served;

    public MainnetProfileBlockSource(ProfileChain chain) {
        this.chain = Objects.requireNonNull(chain, "chain");
        this.served = new AtomicInteger(chain.tipHeight());
    }

    /** Reports {@code height} as the best block from now on. */
    public void serveUpTo(int height) {
        if (height < 0 || height > chain.tipHeight()) {
            throw new IllegalArgumentException("height must be 0.." + chain.tipHeight() + ": " + height);
        }
        served.set(height);
    }

    @Override
    public Sha256Hash bestBlockHash() {
        return chain.hashAt(served.get());
    }

    @Override
    public int bestHeight() {
        return served.get();
    }

    @Override
    public Optional<Sha256Hash> hashAt(int height) {
        return height < 0 || height > served.get() ? Optional.empty() : Optional.of(chain.hashAt(height));
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash hash) {
        return chain.heightOf(hash).map(chain::rawBlock);
    }
}
