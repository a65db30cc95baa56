/**
 * Bitcoin wire encodings and P2P message codecs. A copy of the wallet's, kept here only until
 * the shared codec lands in the filters module; then this package goes away. Not API.
 */
package org.blockfilter.server.p2p.internal.wire;
