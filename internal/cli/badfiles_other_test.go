//go:build !unix

package cli

import "testing"

type special struct{ kind, name, arg string }

func parseSpecial(string, string) (special, bool)      { return special{}, false }
func makeSpecials(*testing.T, string, []special)       {}
func checkHidden(*testing.T, string, *badCase, string) {}
