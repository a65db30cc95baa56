/** The README's quick start, run as written against the packaged server and wallet. */
package org.blockfilter.regtest.readme;
