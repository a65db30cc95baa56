/**
 * Output: CSV tables, plots, the Markdown/HTML report writer, summary statistics and the progress line. Not API.
 */
package org.blockfilter.privacylab.internal.report;
