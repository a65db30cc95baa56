/**
 * Layout rules (ArchUnit) shared through the filters test-jar: internal packages stay internal,
 * {@code filters} stays free of network and storage code, and module dependencies point one way.
 */
package org.blockfilter.filters.arch;
