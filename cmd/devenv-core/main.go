// Command devenv-core is devenv: it pins and runs GPU-ready Spark, RAPIDS and Triton
// environments per project. See the README. The devenv program people run
// (cmd/devenv) answers an up that changes nothing and starts this one for
// everything else.
package main

import (
	"os"

	"github.com/devenv-dev/devenv/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args, cli.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
