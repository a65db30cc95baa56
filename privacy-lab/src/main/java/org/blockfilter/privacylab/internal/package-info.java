/**
 * The machinery behind the experiments, in packages by role: {@code experiments} on top; {@code adversaries},
 * {@code chains}, {@code universe}, {@code filters} and {@code report} below it, with no cycles between them. Not API.
 */
package org.blockfilter.privacylab.internal;
