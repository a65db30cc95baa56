/**
 * Deterministic scenario chains for any {@link org.blockfilter.regtest.RegtestNode}: a
 * {@link org.blockfilter.regtest.scenario.ScenarioSpec} (seed, blocks, wallets, output mix,
 * reorgs) run by {@link org.blockfilter.regtest.scenario.ScenarioRunner} yields the
 * {@link org.blockfilter.regtest.scenario.GroundTruth}: who owns which output, balances, every
 * transaction, every reorg. Start the backend with {@link org.blockfilter.regtest.scenario.ScenarioSpec#miningAddress()}.
 */
package org.blockfilter.regtest.scenario;
