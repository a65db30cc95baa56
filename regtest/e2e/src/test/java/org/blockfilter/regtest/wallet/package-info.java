/**
 * End-to-end tests (module {@code regtest/e2e}, the one place for them): the server and the wallet
 * together against btcd or the embedded regtest node.
 */
package org.blockfilter.regtest.wallet;
