// Command devenv pins and runs GPU-ready Spark, RAPIDS and Triton
// environments per project. See the README.
package main

import (
	"os"

	"github.com/devenv-dev/devenv/compose"
	"github.com/devenv-dev/devenv/internal/cli"
)

func main() {
	code := cli.Main(os.Args, cli.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	compose.StopHelper() // the compose helper, when this command started one
	os.Exit(code)
}
