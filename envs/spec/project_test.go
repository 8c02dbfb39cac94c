package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPosOf(t *testing.T) {
	p, err := Load(filepath.Join("testdata", "valid", "full.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		service, key string
		want         Pos
	}{
		{"spark", "gpus", Pos{26, 5}},
		{"spark", "", Pos{18, 3}},
		{"triton", "ports", Pos{47, 3}}, // not written: the service itself
		{"", "mirrors", Pos{59, 1}},
		{"nope", "gpus", Pos{}},
	} {
		file, got := p.PosOf(c.service, c.key)
		if file != "full.yaml" || got != c.want {
			t.Errorf("PosOf(%q, %q) = %s %+v, want full.yaml %+v", c.service, c.key, file, got, c.want)
		}
	}
	e := p.ErrorAt("spark", "rapids", "no such release", "pick another")
	if got := e.Error(); got != "full.yaml:21:5: no such release\n\thint: pick another" {
		t.Errorf("ErrorAt: %q", got)
	}
}

func TestIsInvalid(t *testing.T) {
	_, err := Load(filepath.Join("testdata", "invalid", "many-problems.yaml"))
	for _, c := range []struct {
		err  error
		want bool
	}{
		{err, true},
		{fmt.Errorf("wrapped: %w", err), true},
		{&Error{File: "devenv.yaml", Msg: "x"}, true},
		{errors.New("engine unreachable"), false},
		{nil, false},
	} {
		if got := IsInvalid(c.err); got != c.want {
			t.Errorf("IsInvalid(%v) = %v", c.err, got)
		}
	}
	if n := len(Errors(err)); n != 13 {
		t.Errorf("Errors gives %d items, want all 13 problems of many-problems.yaml", n)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), FileName))
	if !IsInvalid(err) || !strings.Contains(err.Error(), "devenv init") {
		t.Errorf("Load of a missing file = %v, want an invalid-config error that suggests devenv init", err)
	}
}

// Parse takes a file name relative to the project, and names the project
// after its directory when name: is not written.
func TestParseDefaultsName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "My Project")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := Parse(FileName, []byte("services:\n  db: {profile: image, image: postgres:16}\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Services[0]
	if p.Name != "my-project" || p.File != filepath.Join(dir, FileName) || s.GPUs.Wants() || s.GPU != "required" {
		t.Errorf("got name %q file %q gpus %+v gpu %q", p.Name, p.File, s.GPUs, s.GPU)
	}
	_, err = Parse(FileName, []byte("services:\n  db: {profile: image}\n"), dir)
	if err == nil || !strings.HasPrefix(Errors(err)[0].Error(), "devenv.yaml:2:3: ") {
		t.Errorf("want an error at devenv.yaml:2:3, got %v", err)
	}
}

// A symbolic link that leads out of the project is refused like a path
// that does.
func TestFileLinkOutsideProject(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "req.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "req.txt"), filepath.Join(dir, "req.txt")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	data := []byte("services:\n  s: {profile: rapids, requirements: req.txt}\n")
	_, err := Parse(FileName, data, dir)
	if err == nil || !strings.Contains(err.Error(), "outside the project directory") {
		t.Errorf("want the link refused, got %v", err)
	}
}

func BenchmarkLoad10Services(b *testing.B) {
	dir := b.TempDir()
	var y strings.Builder
	y.WriteString("version: 1\nname: bench\nservices:\n")
	for i := range 10 {
		fmt.Fprintf(&y, `  s%d:
    profile: spark-rapids
    spark: "3.5.1"
    java: "17"
    gpus: [0, 1]
    ports: ["%d:4040", "127.0.0.1:%d:8888"]
    volumes: ["./data:/data:ro", "cache%d:/root/.cache"]
    env: {TZ: UTC, N: %d}
    conf: {spark.sql.shuffle.partitions: "64"}
    jars: ["io.delta:delta-spark_2.12:3.2.0"]
    depends_on: [%s]
    healthcheck: {test: ["CMD", "true"], interval: 10s, retries: 3}
`, i, 4040+i, 8888+i, i, i, depsOf(i))
	}
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte(y.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(path); err != nil {
			b.Fatal(err)
		}
	}
}

func depsOf(i int) string {
	var deps []string
	for j := range i {
		deps = append(deps, fmt.Sprintf("s%d", j))
	}
	return strings.Join(deps, ", ")
}
