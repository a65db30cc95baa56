/**
 * Implementation of the P2P listener: framing with size caps before allocation, per-peer
 * sessions with ban scores and flood budgets, the BIP 157 request answers over the index, and
 * metrics. Not API.
 */
package org.blockfilter.server.p2p.internal;
