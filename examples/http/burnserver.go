// SPDX-License-Identifier: BSD-3-Clause
//
// burnserver.go: the Go field report's shape (docs/results.md): an HTTP
// service whose every request costs a fixed amount of CPU work, on Go's
// runtime, so that its handlers run on the OS threads the runtime starts
// (GOMAXPROCS of them), which pinrun --follow --threads places one by
// one. The same work and answer as burnserver.c; standard library only.
//
//	go build -o /tmp/burnserver-go examples/http/burnserver.go
//	/tmp/burnserver-go [-n ITERATIONS] PORT
//
// It listens on 127.0.0.1:PORT only; SIGINT or SIGTERM stops it (status 0).
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
)

func burn(x uint64, rounds int) uint64 {
	x |= 1
	for i := 0; i < rounds; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

func main() {
	rounds := flag.Int("n", 2000000, "rounds of a xorshift generator per request")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: burnserver-go [-n ITERATIONS] PORT")
		os.Exit(2)
	}
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		fmt.Fprintf(w, "%016x\n", burn(uint64(len(r.URL.Path))*2654435761, *rounds))
	})
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	go func() { <-stop; os.Exit(0) }()
	if err := http.ListenAndServe("127.0.0.1:"+flag.Arg(0), nil); err != nil {
		fmt.Fprintln(os.Stderr, "burnserver-go:", err)
		os.Exit(1)
	}
}
