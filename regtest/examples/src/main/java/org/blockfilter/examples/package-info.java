/**
 * Short programs that use blockfilter as a library, each a {@code main} the README's "Use as a library" section
 * shows as written; {@code ExamplesTest} runs each against a real server, so they cannot rot.
 */
package org.blockfilter.examples;
