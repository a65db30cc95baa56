package org.blockfilter.regtest.scenario;

/** The output types a scenario creates. OP_RETURN outputs belong to nobody. */
public enum OutputKind {
    P2PKH(true),
    P2WPKH(true),
    /** 2-of-3 multisig wrapped in P2SH. */
    P2SH_MULTISIG(true),
    /** 2-of-3 multisig in P2WSH. */
    P2WSH_MULTISIG(true),
    /** Key-path taproot output (an untweaked x-only key); created, never spent by the scenario. */
    P2TR(false),
    /** Bare 1-of-2 multisig. */
    BARE_MULTISIG(true),
    OP_RETURN(false);

    private final boolean spentByScenario;

    OutputKind(boolean spentByScenario) {
        this.spentByScenario = spentByScenario;
    }

    /** Whether the scenario signs spends of this kind (P2TR and OP_RETURN: no). */
    public boolean spentByScenario() {
        return spentByScenario;
    }
}
