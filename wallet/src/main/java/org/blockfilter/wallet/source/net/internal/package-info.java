/** The SOCKS5 client handshake (RFC 1928, RFC 1929). */
package org.blockfilter.wallet.source.net.internal;
