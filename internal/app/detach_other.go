//go:build !unix

package app

import (
	"errors"
	"os"
)

var errNoDetach = errors.New("watch --detach needs a Unix system; run `devenv watch` in a terminal of its own")

func startDetached(string, []string, *os.File) (int, error) { return 0, errNoDetach }

func interrupt(int) error { return errNoDetach }
