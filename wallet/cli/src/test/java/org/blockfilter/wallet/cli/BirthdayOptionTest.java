package org.blockfilter.wallet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.ChainStart;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.junit.jupiter.api.Test;

class BirthdayOptionTest {
    private static LightWallet.Birthday parse(String b, Integer h, String d) {
        return WalletCli.birthday(b, h, d, LightWallet.Birthday::atTip);
    }

    @Test
    void oneOptionTakesAHeightOrADate() {
        assertEquals(LightWallet.Birthday.ofHeight(890_000), parse("890000", null, null));
        assertEquals(LightWallet.Birthday.ofTime(1_577_836_800L), parse("2020-01-01", null, null));
        assertEquals(LightWallet.Birthday.ofHeight(7), parse(null, 7, null), "--birthday-height still works");
        assertEquals(LightWallet.Birthday.ofTime(1_577_836_800L), parse(null, null, "2020-01-01"));
        assertTrue(parse(null, null, null).fromTip(), "no option: the fallback (create: the tip)");
    }

    @Test
    void aBadBirthdayIsAUsageErrorNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("last-june", null, null));
        assertTrue(e.getMessage().contains("last-june") && e.getMessage().contains("YYYY-MM-DD"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> parse("5", 5, null));
    }

    @Test
    void theDefaultRestoreHeightIsTheEarliestItsKindsCouldHaveBeenPaid() {
        assertEquals(481_824, ChainStart.safeBirthday(Chain.MAINNET, EnumSet.of(AddressKind.P2WPKH)));
        assertEquals(709_632, ChainStart.safeBirthday(Chain.MAINNET, EnumSet.of(AddressKind.P2TR)));
        assertEquals(481_824, ChainStart.safeBirthday(Chain.MAINNET, EnumSet.of(AddressKind.P2TR, AddressKind.P2WPKH)));
        assertEquals(0, ChainStart.safeBirthday(Chain.MAINNET, EnumSet.of(AddressKind.P2WPKH, AddressKind.P2PKH)));
        assertEquals(834_624, ChainStart.safeBirthday(Chain.TESTNET3, EnumSet.of(AddressKind.P2WPKH)));
        assertEquals(0, ChainStart.safeBirthday(Chain.REGTEST, EnumSet.of(AddressKind.P2TR)));
    }
}
