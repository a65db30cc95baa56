// Command neutrino-sync syncs lightninglabs/neutrino, LND's BIP 157 light client, from one regtest
// peer (ConnectPeers: only that peer) into an empty data directory: block headers, filter headers
// (neutrino checks them against the peer's cfcheckpt), then every basic filter from height 1 to
// the tip, each of which neutrino checks against its filter header before it hands it out.
//
// Usage: neutrino-sync -peer 127.0.0.1:PORT -height N -datadir DIR [-timeout 10m] [-retries N] [-dump-filter-headers]
//
//	[-rescan ADDRESS]...
//
// It waits until neutrino's block headers and filter headers both reach height N, then fetches the
// filters in batches of 1,000 (getcfilters) and prints, on stdout, one JSON object per line:
//
//	{"phase":"headers","height":N,"seconds":S}        block headers at N
//	{"phase":"filterheaders","height":N,"seconds":S}  filter headers at N
//	{"phase":"filters","count":C,"seconds":S}         C filters fetched and verified
//	{"filterHeader":{"height":H,"header":HEX}}        with -dump-filter-headers, heights 0..N
//	{"rescanTx":{"address":A,"txid":T,"height":H}}    with -rescan A: a transaction paying A
//	{"phase":"rescan","address":A,"blocks":B,"seconds":S}  the rescan for A is done, B blocks seen
//	{"result":{...}}                                  last line: tip, seconds, bytes, filters verified
//
// Each -rescan address gets its own rescan (neutrino's NewRescan with WatchAddrs of that address
// alone), from the genesis block to block N: neutrino matches each block's filter against the
// address, downloads the blocks that match, checks the filter against the block and reports the
// transactions paying the address (OnFilteredBlockConnected).
//
// Seconds count from the start of the chain service. Bytes are neutrino's own counters
// (ChainService.NetTotals: every message read from or written to peers, 24-byte headers included).
// Exit code 0 on success; 1 with {"error": "..."} on stdout otherwise; 2 for bad flags.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/btcsuite/btcd/btcutil"
	"github.com/btcsuite/btcd/chaincfg"
	"github.com/btcsuite/btcd/chaincfg/chainhash"
	"github.com/btcsuite/btcd/rpcclient"
	"github.com/btcsuite/btcd/wire"
	"github.com/btcsuite/btclog"
	"github.com/btcsuite/btcwallet/walletdb"
	_ "github.com/btcsuite/btcwallet/walletdb/bdb"
	"github.com/lightninglabs/neutrino"
	"github.com/lightninglabs/neutrino/headerfs"
	"github.com/lightninglabs/neutrino/query"
)

type result struct {
	Height               uint32  `json:"height"`
	Hash                 string  `json:"hash"`
	FilterHeader         string  `json:"filterHeader"`
	HeadersSeconds       float64 `json:"headersSeconds"`
	FilterHeadersSeconds float64 `json:"filterHeadersSeconds"`
	FiltersSeconds       float64 `json:"filtersSeconds"`
	FiltersVerified      int     `json:"filtersVerified"`
	BytesReceived        uint64  `json:"bytesReceived"`
	BytesSent            uint64  `json:"bytesSent"`
}

func emit(v any) {
	line, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(line))
}

func fail(format string, args ...any) {
	emit(map[string]string{"error": fmt.Sprintf(format, args...)})
	os.Exit(1)
}

func main() {
	peer := flag.String("peer", "", "the one peer to sync from, host:port")
	height := flag.Int("height", -1, "the peer's tip height to sync to")
	dataDir := flag.String("datadir", "", "an empty directory for neutrino's headers and database")
	timeout := flag.Duration("timeout", 10*time.Minute, "give up after this long")
	dump := flag.Bool("dump-filter-headers", false, "print every filter header, heights 0..N")
	retries := flag.Int("retries", -1, "times neutrino asks again for filters it did not get or could not verify (default: neutrino's, 8)")
	logLevel := flag.String("log", "info", "neutrino's log level on stderr (trace, debug, info, warn, error, off)")
	var rescans []btcutil.Address
	flag.Func("rescan", "a regtest address to rescan blocks 1..N for (repeatable)", func(s string) error {
		a, err := btcutil.DecodeAddress(s, &chaincfg.RegressionNetParams)
		if err != nil {
			return fmt.Errorf("not a regtest address: %v", err)
		}
		if !a.IsForNet(&chaincfg.RegressionNetParams) {
			return fmt.Errorf("%s is not a regtest address", s)
		}
		rescans = append(rescans, a)
		return nil
	})
	flag.Parse()
	if *peer == "" || *height < 0 || *dataDir == "" || *retries > 255 || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: neutrino-sync -peer HOST:PORT -height N -datadir DIR [-timeout D] [-retries N] [-dump-filter-headers] [-rescan ADDRESS]... [-log LEVEL]")
		os.Exit(2)
	}
	level, ok := btclog.LevelFromString(*logLevel)
	if !ok {
		fmt.Fprintln(os.Stderr, "neutrino-sync: unknown -log level "+*logLevel)
		os.Exit(2)
	}
	backend := btclog.NewBackend(os.Stderr)
	for name, use := range map[string]func(btclog.Logger){"NTRN": neutrino.UseLogger, "QURY": query.UseLogger} {
		l := backend.Logger(name)
		l.SetLevel(level)
		use(l)
	}
	options := []neutrino.QueryOption{neutrino.OptimisticBatch()}
	if *retries >= 0 {
		options = append(options, neutrino.NumRetries(uint8(*retries)))
	}
	run(*peer, uint32(*height), *dataDir, *timeout, *dump, rescans, options)
}

func run(peer string, height uint32, dataDir string, timeout time.Duration, dump bool,
	rescans []btcutil.Address, options []neutrino.QueryOption) {

	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		fail("cannot create %s: %v", dataDir, err)
	}
	db, err := walletdb.Create("bdb", filepath.Join(dataDir, "neutrino.db"), true, time.Minute)
	if err != nil {
		fail("cannot create neutrino's database in %s: %v", dataDir, err)
	}
	defer db.Close()

	// Every filter of the run stays in the cache, so the check below sees each one once from
	// the network and never asks twice (the default cache holds ~31 MB).
	cs, err := neutrino.NewChainService(neutrino.Config{
		DataDir:         dataDir,
		Database:        db,
		ChainParams:     chaincfg.RegressionNetParams,
		ConnectPeers:    []string{peer},
		FilterCacheSize: 4 << 30,
	})
	if err != nil {
		fail("cannot create neutrino's chain service: %v", err)
	}
	start := time.Now()
	if err := cs.Start(); err != nil {
		fail("cannot start neutrino: %v", err)
	}
	defer cs.Stop()
	deadline := start.Add(timeout)
	seconds := func() float64 { return time.Since(start).Seconds() }

	var res result
	res.HeadersSeconds = awaitHeight("block headers", height, deadline, func() (uint32, error) {
		_, h, err := cs.BlockHeaders.ChainTip()
		return h, err
	}, seconds)
	emit(map[string]any{"phase": "headers", "height": height, "seconds": res.HeadersSeconds})
	res.FilterHeadersSeconds = awaitHeight("filter headers", height, deadline, func() (uint32, error) {
		_, h, err := cs.RegFilterHeaders.ChainTip()
		return h, err
	}, seconds)
	emit(map[string]any{"phase": "filterheaders", "height": height, "seconds": res.FilterHeadersSeconds})

	// Heights 1..N (neutrino never fetches the genesis filter), 1,000 per getcfilters: each
	// GetCFilter with OptimisticBatch asks for the filter and the 999 after it, and the batch's
	// other filters then come from the cache. A filter that does not hash to its filter header is
	// dropped by neutrino and the query fails.
	for h := uint32(1); h <= height; h++ {
		if time.Now().After(deadline) {
			fail("timed out after %v fetching filters at height %d", timeout, h)
		}
		hash, err := cs.GetBlockHash(int64(h))
		if err != nil {
			fail("no block hash at height %d: %v", h, err)
		}
		if _, err := cs.GetCFilter(*hash, wire.GCSFilterRegular, options...); err != nil {
			fail("filter at height %d (%s) not fetched or not verified: %v", h, hash, err)
		}
		res.FiltersVerified++
	}
	res.FiltersSeconds = seconds()
	emit(map[string]any{"phase": "filters", "count": res.FiltersVerified, "seconds": res.FiltersSeconds})

	tip, err := cs.BlockHeaders.FetchHeaderByHeight(height)
	if err != nil {
		fail("no block header at %d: %v", height, err)
	}
	tipHash := tip.BlockHash()
	res.Height = height
	res.Hash = tipHash.String()
	fh, err := cs.RegFilterHeaders.FetchHeaderByHeight(height)
	if err != nil {
		fail("no filter header at %d: %v", height, err)
	}
	res.FilterHeader = fh.String()
	if dump {
		for h := uint32(0); h <= height; h++ {
			f, err := cs.RegFilterHeaders.FetchHeaderByHeight(h)
			if err != nil {
				fail("no filter header at %d: %v", h, err)
			}
			emit(map[string]any{"filterHeader": map[string]any{"height": h, "header": f.String()}})
		}
	}
	for _, a := range rescans {
		blocks := rescan(cs, a, height, tipHash, deadline)
		emit(map[string]any{"phase": "rescan", "address": a.String(), "blocks": blocks, "seconds": seconds()})
	}
	res.BytesReceived, res.BytesSent = cs.NetTotals()
	emit(map[string]any{"result": res})
}

// awaitHeight polls tip every 20 ms until it reaches height, failing at the deadline.
func awaitHeight(what string, height uint32, deadline time.Time, tip func() (uint32, error),
	seconds func() float64) float64 {

	for {
		h, err := tip()
		if err == nil && h >= height {
			return seconds()
		}
		if time.Now().After(deadline) {
			fail("timed out with %s at height %d (err %v), waiting for %d", what, h, err, height)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// rescan runs neutrino's rescan for address from the genesis block (not itself notified) to the
// block at height, printing each transaction neutrino reports as paying the address; it returns
// how many blocks the rescan notified.
func rescan(cs *neutrino.ChainService, address btcutil.Address, height uint32, tip chainhash.Hash,
	deadline time.Time) int {

	blocks := 0
	quit := make(chan struct{})
	r := neutrino.NewRescan(
		&neutrino.RescanChainSource{ChainService: cs},
		neutrino.WatchAddrs(address),
		neutrino.StartBlock(&headerfs.BlockStamp{Hash: *chaincfg.RegressionNetParams.GenesisHash, Height: 0}),
		neutrino.EndBlock(&headerfs.BlockStamp{Hash: tip, Height: int32(height)}),
		neutrino.QuitChan(quit),
		neutrino.NotificationHandlers(rpcclient.NotificationHandlers{
			// Runs on the rescan's goroutine, in block order.
			OnFilteredBlockConnected: func(h int32, _ *wire.BlockHeader, txs []*btcutil.Tx) {
				blocks++
				for _, tx := range txs {
					emit(map[string]any{"rescanTx": map[string]any{
						"address": address.String(), "txid": tx.Hash().String(), "height": h}})
				}
			},
		}),
	)
	select {
	case err := <-r.Start():
		if err != nil {
			fail("rescan for %s failed: %v", address, err)
		}
	case <-time.After(time.Until(deadline)):
		close(quit)
		r.WaitForShutdown()
		fail("timed out rescanning for %s after %d blocks", address, blocks)
	}
	return blocks
}
