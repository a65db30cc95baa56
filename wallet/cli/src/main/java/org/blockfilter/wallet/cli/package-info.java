/**
 * The wallet's command line ({@link org.blockfilter.wallet.cli.WalletCli}): create, restore,
 * watch, receive, sync (progress on stderr), balance, history, send; {@code --json} output.
 */
package org.blockfilter.wallet.cli;
