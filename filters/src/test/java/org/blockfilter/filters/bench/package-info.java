/**
 * JMH benchmarks of the filters module (not tests: surefire never runs them). Run with
 * {@code ./mvnw -B -q -pl filters test -Dbench=filters -Dbench.args="..."}; numbers are in docs/benchmarks.md.
 */
package org.blockfilter.filters.bench;
