/**
 * The btcd backend: finds or installs the btcd binary ({@link org.blockfilter.regtest.btcd.BtcdBinary})
 * and runs it as a regtest node on 127.0.0.1 with compact filters and Bloom filters served
 * ({@link org.blockfilter.regtest.btcd.BtcdNode}).
 */
package org.blockfilter.regtest.btcd;
