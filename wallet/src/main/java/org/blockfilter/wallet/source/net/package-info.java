/**
 * How the wallet's sources open connections: directly, or through a SOCKS5 proxy such as Tor's
 * SocksPort with names resolved by the proxy ({@code --proxy socks5h://HOST:PORT}).
 */
package org.blockfilter.wallet.source.net;
