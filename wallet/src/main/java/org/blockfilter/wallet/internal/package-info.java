/** Not API. Helpers shared by the wallet's packages: an HTTP body reader with a size limit. */
package org.blockfilter.wallet.internal;
