// Command devenv-compose loads a project's compose files for devenv with
// compose-go, in a process of its own: devenv runs it (found next to the
// devenv executable, else on PATH) only for projects with compose files,
// so devenv itself does not link compose-go's loader and its JSON-schema
// compiler. It is not a command for people: it reads one JSON request
// (compose.Request) on stdin and writes one JSON response
// (compose.Response) on stdout. Build it with devenv: `make build`.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/devenv-dev/devenv/compose/loader"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "devenv-compose loads compose files for devenv, which runs it with a JSON request on stdin; it takes no arguments. Run devenv instead.")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := loader.Serve(ctx, os.Stdin, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "devenv-compose: %v\n", err)
		os.Exit(1)
	}
}
