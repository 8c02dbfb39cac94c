package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/goldenfile"
)

// TestMirrorEditsOnlyItsKey: devenv mirror records mirror: in devenv.yaml's
// own text; every other byte of the commented starter that devenv init
// writes (blank lines, comments, quoting) stays as it was.
func TestMirrorEditsOnlyItsKey(t *testing.T) {
	for _, profile := range []string{"spark-rapids"} {
		t.Run(profile, func(t *testing.T) {
			raw, err := spec.Starter("demo-project", profile)
			if err != nil {
				t.Fatal(err)
			}
			got := recordMirrorText(t, raw, "spark", "prod/cluster.json", "")
			goldenfile.Check(t, filepath.Join("testdata", "mirror-starter-"+profile+".golden.yaml"), got)
			added := onlyAddedLines(t, string(raw), string(got))
			if len(added) != 1 || added[0] != "    mirror: prod/cluster.json" {
				t.Errorf("lines added to the starter: %q, want the one mirror: line", added)
			}
		})
	}
}

// TestMirrorTextEdits: the key is replaced where it stands, added after the
// service's last line or pair, mirror_format removed or set, line ends kept;
// a layout the text edit cannot follow is written out whole and still loads.
func TestMirrorTextEdits(t *testing.T) {
	cases := []struct {
		name, in, rel, format, want string
	}{
		{"replaced in place, its comment kept",
			"services:\n  s:\n    profile: spark-rapids\n    mirror: old.json   # prod\n\n    jupyter: false\n# end\n", "prod/new.json", "",
			"services:\n  s:\n    profile: spark-rapids\n    mirror: prod/new.json   # prod\n\n    jupyter: false\n# end\n"},
		{"quoted value replaced",
			"services:\n  s:\n    profile: spark-rapids\n    mirror: \"old # x.json\" # c\n", "p.json", "",
			"services:\n  s:\n    profile: spark-rapids\n    mirror: p.json # c\n"},
		{"a forced format dropped with its line",
			"services:\n  s:\n    profile: spark-rapids\n    mirror: old.json\n    mirror_format: eventlog   # forced\n    gpus: 1\n", "new.json", "",
			"services:\n  s:\n    profile: spark-rapids\n    mirror: new.json\n    gpus: 1\n"},
		{"a forced format added",
			"services:\n  s:\n    profile: spark-rapids\n\n  t:\n    profile: rapids\n", "prod/x", "spark-submit",
			"services:\n  s:\n    profile: spark-rapids\n    mirror: prod/x\n    mirror_format: spark-submit\n\n  t:\n    profile: rapids\n"},
		{"added after a nested mapping",
			"services:\n  s:\n    profile: spark-rapids\n    env:\n      TZ: UTC\n    # mirror: later\nmirrors: {}\n", "p.json", "",
			"services:\n  s:\n    profile: spark-rapids\n    env:\n      TZ: UTC\n    mirror: p.json\n    # mirror: later\nmirrors: {}\n"},
		{"flow mapping",
			"services:\n  s: {profile: spark-rapids, gpus: 1}  # one line\n", "p.json", "",
			"services:\n  s: {profile: spark-rapids, gpus: 1, mirror: p.json}  # one line\n"},
		{"a value YAML would read as a number is quoted",
			"services:\n  s:\n    profile: spark-rapids\n", "123", "",
			"services:\n  s:\n    profile: spark-rapids\n    mirror: \"123\"\n"},
		{"CRLF kept",
			"services:\r\n  s:\r\n    profile: spark-rapids\r\n\r\n# c\r\n", "p.json", "",
			"services:\r\n  s:\r\n    profile: spark-rapids\r\n    mirror: p.json\r\n\r\n# c\r\n"},
		{"a block scalar: written out whole",
			"services:\n  s:\n    profile: spark-rapids\n    env:\n      NOTE: |\n        hi\n", "p.json", "",
			"services:\n  s:\n    profile: spark-rapids\n    env:\n      NOTE: |\n        hi\n    mirror: p.json\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(recordMirrorText(t, []byte(tc.in), "s", tc.rel, tc.format)); got != tc.want {
				t.Errorf("devenv.yaml became\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func recordMirrorText(t *testing.T, raw []byte, service, rel, format string) []byte {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{rel, "old.json", "old # x.json"} {
		writeProjectFile(t, dir, f)
	}
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), raw, dir)
	if err != nil {
		t.Fatalf("the input does not load: %v", err)
	}
	next, got, err := recordMirror(p, service, rel, format)
	if err != nil {
		t.Fatal(err)
	}
	if s := next.Services[0]; s.Name == service && filepath.Base(s.Mirror) != filepath.Base(rel) {
		t.Errorf("the edited file loads with mirror %q, want %q", s.Mirror, rel)
	}
	return got
}

func writeProjectFile(t *testing.T, dir, rel string) {
	t.Helper()
	path := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// onlyAddedLines returns the lines of after that are not in before, and
// fails unless after is before with those lines inserted.
func onlyAddedLines(t *testing.T, before, after string) []string {
	t.Helper()
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	var added []string
	i := 0
	for _, l := range a {
		if i < len(b) && l == b[i] {
			i++
			continue
		}
		added = append(added, l)
	}
	if i != len(b) {
		t.Errorf("the starter's line %d %q was changed or removed", i+1, b[i])
	}
	return added
}
