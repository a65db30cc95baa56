/** Script reading for BIP 37 matching, done the way Bitcoin Core's {@code GetOp} and {@code Solver} do it. Not API. */
package org.blockfilter.filters.bloom.internal;
