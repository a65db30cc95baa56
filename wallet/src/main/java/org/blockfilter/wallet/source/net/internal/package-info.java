/** The SOCKS5 client handshake and the in-process HTTP proxy that carries HTTP sources over it. */
package org.blockfilter.wallet.source.net.internal;
