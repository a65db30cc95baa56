/**
 * The static export: the index written as immutable, content-addressed files plus one small
 * index document, for any HTTP server, CDN or object store to serve.
 */
package org.blockfilter.server.export;
