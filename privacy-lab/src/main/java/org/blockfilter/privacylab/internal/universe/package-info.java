/**
 * The adversary's candidate addresses and the parallel scan of a universe against many filters. Not API.
 */
package org.blockfilter.privacylab.internal.universe;
