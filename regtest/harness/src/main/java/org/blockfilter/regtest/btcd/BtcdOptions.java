package org.blockfilter.regtest.btcd;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Address;

/**
 * How to start btcd. Immutable; change a copy with the {@code withX} methods. No field is null:
 * an empty {@code binary} means "find or install it" ({@link BtcdBinary#locateOrInstall}).
 *
 * @param miningAddress where {@code generate} pays (btcd fixes it at start)
 * @param binary        the btcd executable to run, or empty to locate it
 * @param startTimeout  how long to wait for the RPC server after the process starts
 * @param extraArgs     further command-line flags, appended as given
 * @param rpcPort       fixed RPC port, or 0 to pick a free one (and retry on a bind race)
 * @param p2pPort       fixed P2P port, or 0 to pick a free one
 */
public record BtcdOptions(
        Address miningAddress,
        Optional<Path> binary,
        Duration startTimeout,
        List<String> extraArgs,
        int rpcPort,
        int p2pPort) {
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);

    public BtcdOptions {
        Objects.requireNonNull(miningAddress, "miningAddress");
        Objects.requireNonNull(binary, "binary");
        Objects.requireNonNull(startTimeout, "startTimeout");
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("startTimeout must be positive: " + startTimeout);
        }
        extraArgs = List.copyOf(extraArgs);
        if (rpcPort < 0 || rpcPort > 65535 || p2pPort < 0 || p2pPort > 65535) {
            throw new IllegalArgumentException("ports must be in 0..65535: rpc " + rpcPort + ", p2p " + p2pPort);
        }
    }

    /** Whether both ports are picked at start (so a failed bind may be retried with others). */
    public boolean picksPorts() {
        return rpcPort == 0 && p2pPort == 0;
    }

    public BtcdOptions withPorts(int rpc, int p2p) {
        return new BtcdOptions(miningAddress, binary, startTimeout, extraArgs, rpc, p2p);
    }

    public static BtcdOptions of(Address miningAddress) {
        return new BtcdOptions(miningAddress, Optional.empty(), DEFAULT_START_TIMEOUT, List.of(), 0, 0);
    }

    public BtcdOptions withBinary(Path binary) {
        return new BtcdOptions(miningAddress, Optional.of(binary), startTimeout, extraArgs, rpcPort, p2pPort);
    }

    public BtcdOptions withStartTimeout(Duration timeout) {
        return new BtcdOptions(miningAddress, binary, timeout, extraArgs, rpcPort, p2pPort);
    }

    public BtcdOptions withExtraArgs(List<String> args) {
        return new BtcdOptions(miningAddress, binary, startTimeout, args, rpcPort, p2pPort);
    }
}
