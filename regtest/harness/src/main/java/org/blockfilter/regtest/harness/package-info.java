/**
 * The scenario node command ({@link org.blockfilter.regtest.harness.ScenarioMain}): builds a
 * scenario chain on btcd or the embedded node and keeps it running for demos and other modules.
 */
package org.blockfilter.regtest.harness;
