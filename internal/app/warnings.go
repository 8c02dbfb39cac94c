package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"

	"github.com/devenv-dev/devenv/envs/plan"
	"github.com/devenv-dev/devenv/internal/safefile"
	"github.com/devenv-dev/devenv/internal/statedir"
)

// composeWarningsFile, in the state directory, holds the hash of the
// compose warnings last printed.
const composeWarningsFile = "compose-warnings.sha256"

// warningsToPrint are the plan's warnings a command prints now: every
// warning about this run, and the warnings about compose keys devenv does
// not apply only when they changed since they were last printed (once per
// change of the compose files, not on every command).
func (p *Project) warningsToPrint(pl *plan.Plan) []string {
	var out []string
	for _, w := range pl.Warnings {
		if !slices.Contains(pl.ComposeWarnings, w) {
			out = append(out, w)
		}
	}
	if p.composeWarningsChanged(pl.ComposeWarnings) {
		out = append(out, pl.ComposeWarnings...)
	}
	return out
}

// composeWarningsChanged records the set of compose warnings and reports
// whether it differs from the one recorded before.
func (p *Project) composeWarningsChanged(ws []string) bool {
	sorted := slices.Clone(ws)
	slices.Sort(sorted)
	sum := sha256.Sum256([]byte(strings.Join(sorted, "\n")))
	hash := []byte(hex.EncodeToString(sum[:]) + "\n")
	path := filepath.Join(p.StateDir(), composeWarningsFile)
	p.reads.File(path)
	if old, err := statedir.ReadFile(p.StateDir(), path, safefile.MaxState); err == nil && bytes.Equal(old, hash) {
		return false
	}
	_ = statedir.WriteFile(p.StateDir(), path, hash, 0o644) // unrecorded (or refused: a link): printed again next time
	return len(ws) > 0
}
