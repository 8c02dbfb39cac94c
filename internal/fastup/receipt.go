// Package fastup is the no-op `devenv up` that does not start devenv's
// full program. A whole-project up that succeeded writes a receipt: the
// state of every input it planned from (files, the environment, the
// program), of the engine's containers and images it left, and what an up
// that changes nothing prints. The next `devenv up` compares the receipt
// with the world, and only when everything is as it was prints that and
// stops; anything else (a changed or touched file, a stopped container, a
// new one, another program) runs the full devenv, which decides. The check
// never decides that something must change: it only recognises "nothing
// did", so it can be wrong only by being slow.
//
// It links nothing but the standard library and devenv's small state and
// label packages: the point is a program that starts in a millisecond,
// where devenv's full one spends 15 to 20 ms initialising the Compose SDK.
package fastup

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/devenv-dev/devenv/internal/statedir"
)

// Version is the receipt format; a receipt of another version is ignored.
const Version = 2

// FileName is the receipt's name under the project's .devenv directory.
const FileName = "up-receipt.json"

// maxReceipt bounds the receipt read (a few KB per service).
const maxReceipt = 4 << 20

// Receipt is what a successful `devenv up` of the whole project left.
type Receipt struct {
	Version int    `json:"version"`
	Project string `json:"project"`
	File    string `json:"file"`     // devenv.yaml, absolute
	WorkDir string `json:"work_dir"` // where that up ran
	// Program is the full devenv that wrote the receipt (its path, size
	// and modification time): another build plans differently.
	Program string `json:"program"`
	Env     string `json:"env"` // EnvDigest of the environment it ran in
	// Socket is the engine's unix socket: the receipt is only written for
	// one, as the endpoint docker/cli resolved from the same environment
	// and docker configuration (both part of the inputs).
	Socket string `json:"socket"`
	// Files, Trees and Contexts are the inputs: what the full up read, as
	// the code that read each recorded it (internal/readset), no list kept
	// apart. Files are stat'ed one by one, Trees walked (hidden directories
	// below the top skipped) apart from Skip; Inputs is their Fingerprint.
	Files []string `json:"files"`
	Trees []string `json:"trees"`
	Skip  []string `json:"skip,omitempty"`
	// Contexts are the build contexts, walked as the build sends them
	// (hidden files included, .dockerignore applied, Skip not).
	Contexts []string `json:"contexts,omitempty"`
	Inputs   string   `json:"inputs"`
	// Machine is the engine's CPUs and memory when the plan used them.
	Machine    *Machine          `json:"machine,omitempty"`
	Containers []Container       `json:"containers"`
	Images     map[string]string `json:"images"` // image reference -> id
	// Stdout is what an up that changes nothing prints, as text and
	// with --json.
	Text string `json:"text"`
	JSON string `json:"json"`
}

// Machine is the engine's size as /info reports it.
type Machine struct {
	CPUs   int   `json:"cpus"`
	Memory int64 `json:"memory"`
}

// Container is one of the project's containers as up left it: running.
type Container struct {
	ID       string            `json:"id"`
	Name     string            `json:"name"`
	Image    string            `json:"image"`    // the reference it was created from
	Networks map[string]string `json:"networks"` // network name -> id
}

// Path is the receipt of the project whose state directory is stateDir.
func Path(stateDir string) string { return filepath.Join(stateDir, FileName) }

// Read reads the receipt under stateDir: nil, nil when there is none; an
// error for one that is a link, too large or not a receipt.
func Read(stateDir string) (*Receipt, error) {
	data, err := statedir.ReadFile(stateDir, Path(stateDir), maxReceipt)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r Receipt
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", Path(stateDir), err)
	}
	if r.Version != Version {
		return nil, nil
	}
	return &r, nil
}

// Write replaces the receipt under stateDir (atomically: a reader sees the
// old one or the new one).
func Write(stateDir string, r *Receipt) error {
	r.Version = Version
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := statedir.MkdirAll(stateDir, stateDir); err != nil {
		return err
	}
	return statedir.WriteFile(stateDir, Path(stateDir), data, 0o600)
}

// Remove deletes the receipt under stateDir, if there is one: whatever
// changes the project first removes it, so that no up trusts a receipt
// of a state that is going away.
func Remove(stateDir string) error {
	err := os.Remove(Path(stateDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
