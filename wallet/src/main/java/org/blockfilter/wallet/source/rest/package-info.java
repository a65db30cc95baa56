/**
 * The REST transport: {@link org.blockfilter.wallet.source.rest.RestSource} reads our server's
 * {@code /api/v1} API in its binary representation, with timeouts and response size limits.
 */
package org.blockfilter.wallet.source.rest;
