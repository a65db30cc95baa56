/**
 * Test fixtures shared with the other modules' tests through the filters test-jar (dependency
 * {@code blockfilter-filters} with {@code <type>test-jar</type>}, test scope): {@link
 * org.blockfilter.filters.testing.RegtestChainBuilder}, an in-memory regtest chain of real,
 * solved blocks with signed transactions, their basic filters and filter headers. Never on a
 * production classpath.
 */
package org.blockfilter.filters.testing;
