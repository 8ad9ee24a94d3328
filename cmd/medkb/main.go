// Command medkb is the command-line face of the medkb store: ingest, query,
// repl, demo, stats, show, export, check, rebuild, backup, bench and tune.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
