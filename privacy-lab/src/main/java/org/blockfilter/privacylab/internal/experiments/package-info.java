/**
 * The experiments: each one's setup (the {@code Lab} it is given), its runs, its summaries, tables and report
 * sections. Uses every other package of the lab; none of them uses it. Not API.
 */
package org.blockfilter.privacylab.internal.experiments;
