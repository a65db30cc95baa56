package org.blockfilter.wallet.spend;

import org.blockfilter.wallet.psbt.Psbt;

/**
 * An unsigned payment as a PSBT, with what the user confirms (its {@code vsize} is the selection's
 * upper-bound estimate until it is signed). Immutable.
 */
public record PsbtPayment(Psbt psbt, PreparedPayment summary) {}
