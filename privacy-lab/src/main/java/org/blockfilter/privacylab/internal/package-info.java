/**
 * The machinery behind the experiments: the synthetic address universe, the fast membership scan,
 * the bitcoinj wallets whose filters are measured, the metrics, and CSV/plot/report output. Not API.
 */
package org.blockfilter.privacylab.internal;
