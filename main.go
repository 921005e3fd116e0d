// Command jigbench is a desktop workbench for the JigShape and ViGoR-Bench
// visual-reasoning benchmarks. Without arguments it opens the app; with a
// subcommand it runs headless (see `jigbench help`).
package main

import (
	"os"

	"github.com/jigbench/jigbench/app"
)

func main() {
	os.Exit(app.Main(os.Args[1:]))
}
