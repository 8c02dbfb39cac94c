// Command mkrelease makes devenv's release into a directory (make release:
// a snapshot of this commit; the release workflow: a tag). It reads the
// version, commit and SOURCE_DATE_EPOCH from git unless given, and expects
// the pinned tools built into -tools (make release-tools).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/devenv-dev/devenv/internal/release"
)

func main() {
	out := flag.String("out", "bin/release", "the directory to write the release into (emptied first)")
	targets := flag.String("targets", "all", "OS/ARCH,... to build (all: "+fmt.Sprint(release.AllTargets)+")")
	version := flag.String("version", "", "the version (default: the tag at HEAD, else v0.0.0-snapshot.COMMIT)")
	tools := flag.String("tools", "bin/tools", "the directory holding nfpm, cyclonedx-gomod and minisign")
	key := flag.String("key", os.Getenv("DEVENV_MINISIGN_KEY_FILE"), "the minisign secret key to sign with (default: a throwaway key for a snapshot)")
	flag.Parse()
	if err := run(*out, *targets, *version, *tools, *key); err != nil {
		fmt.Fprintf(os.Stderr, "mkrelease: %v\n", err)
		os.Exit(1)
	}
}

func run(out, targets, version, tools, key string) error {
	ts, err := release.ParseTargets(targets)
	if err != nil {
		return err
	}
	root, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	commit, err := git("rev-parse", "HEAD")
	if err != nil {
		return err
	}
	status, err := git("status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return err
	}
	dirty := status != ""
	if version == "" {
		version = snapshotVersion(commit, dirty)
		if tag, err := git("describe", "--tags", "--exact-match", "HEAD"); err == nil && !dirty {
			version = tag
		}
	}
	epoch, err := sourceDateEpoch()
	if err != nil {
		return err
	}
	res, err := release.Run(context.Background(), release.Options{
		Root: root, Out: out, Version: version, Commit: commit, Dirty: dirty, Epoch: epoch, Targets: ts, Tools: tools, Key: key,
		Log: func(f string, a ...any) { fmt.Fprintf(os.Stderr, "mkrelease: "+f+"\n", a...) },
	})
	if err != nil {
		return err
	}
	for _, a := range res.Archives {
		fmt.Println(a.Name)
	}
	for _, p := range res.Packages {
		fmt.Println(p)
	}
	fmt.Println(res.Checksums)
	return nil
}

func snapshotVersion(commit string, dirty bool) string {
	v := "v0.0.0-snapshot." + commit[:min(12, len(commit))]
	if dirty {
		v += ".dirty"
	}
	return v
}

// sourceDateEpoch is $SOURCE_DATE_EPOCH, else the commit's time.
func sourceDateEpoch() (int64, error) {
	s := os.Getenv("SOURCE_DATE_EPOCH")
	if s == "" {
		var err error
		if s, err = git("log", "-1", "--format=%ct"); err != nil {
			return 0, err
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("SOURCE_DATE_EPOCH %q is not a number of seconds", s)
	}
	return n, nil
}

func git(args ...string) (string, error) {
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
