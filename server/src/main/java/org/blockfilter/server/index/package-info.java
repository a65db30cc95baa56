/**
 * The filter index: builds a BIP 158 basic filter and BIP 157 header per block of the node's
 * chain, stores them with undo data and follows the tip through reorgs. The read side is
 * {@link org.blockfilter.server.read}. Only calls the filters module's public API; no Javalin imports.
 */
package org.blockfilter.server.index;
