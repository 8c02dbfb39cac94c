package app

import (
	"slices"

	"github.com/devenv-dev/devenv/compose/export"
	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/profiles"
)

// The facts of devenv's catalog and formats the command line shows in its
// flags' help and completes: taken from the packages that own them, so a
// new profile or format reaches the CLI by itself.

// DefaultInitProfile is the profile `devenv init` starts a project with.
const DefaultInitProfile = profiles.SparkRapids

// BuiltinProfiles are the names of the profiles devenv ships with, in the
// order its messages list them (init --profile's values).
func BuiltinProfiles() []string { return slices.Clone(spec.BuiltinProfiles) }

// ProfileSummary is the built-in profiles and their compatibility matrix
// (`devenv profiles`); its Text is the table.
func ProfileSummary() profiles.Summary { return profiles.Builtin().Summary() }

// MirrorFormats are the production formats `devenv mirror --format` takes.
func MirrorFormats() []string { return slices.Clone(mirror.Formats) }

// DefaultMaxWindowMB is the largest zstd window, in MiB, an event log is
// read with unless --max-window (or DEVENV_MAX_WINDOW_MB) says more.
const DefaultMaxWindowMB = mirror.DefaultMaxWindowMB

// Where export writes, relative to the project: the compose file it
// suggests for -o, and the devcontainer.json.
const (
	ExportComposeFile      = export.ComposeFileName
	ExportDevcontainerPath = export.DevcontainerPath
)
