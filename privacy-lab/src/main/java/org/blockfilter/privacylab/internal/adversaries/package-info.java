/**
 * The observers: the BIP 37 filter adversary and its success metric, and the download adversaries that rank
 * scripts from the blocks a client fetched (transaction graph, change linking). Not API.
 */
package org.blockfilter.privacylab.internal.adversaries;
