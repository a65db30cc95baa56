/** Runs every example of the README's "Use as a library" section against a real server, and checks the README shows them as written. */
package org.blockfilter.examples;
