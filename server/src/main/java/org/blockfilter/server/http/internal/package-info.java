/**
 * Implementation of the REST layer: controllers (Javalin handlers doing IO and validation only),
 * the services behind them (no Javalin imports), wire encodings, the BIP 37 scanner, the Core
 * compatibility formats and metrics. Not API.
 */
package org.blockfilter.server.http.internal;
