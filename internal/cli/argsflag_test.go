package cli

import "io"

// argsHaveFlag reports whether devenv itself was given the boolean flag
// (e.g. "--json"), not the command that exec or run starts.
func argsHaveFlag(args []string, flag string) bool {
	return commandLine(newApp(Streams{Out: io.Discard, Err: io.Discard})).HasFlag(args, flag)
}
