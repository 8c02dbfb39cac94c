package e2e

import (
	"fmt"
	"github.com/devenv-dev/devenv/profiles"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/redact/redacttest"
	"github.com/devenv-dev/devenv/test/standin"
)

// TestProdSecretsNeverLeave mirrors a spark-defaults.conf holding every
// shape in the secret catalogue (by key and inside values, as confs and as
// executor environment variables), then runs every command that writes or
// prints prod's confs, and greps all of their output and every file in the
// project for each secret.
func TestProdSecretsNeverLeave(t *testing.T) {
	t.Parallel()
	var conf strings.Builder
	conf.WriteString("spark.sql.shuffle.partitions 64\nspark.rapids.sql.enabled true\n")
	for _, s := range redacttest.Catalogue {
		key := s.Key
		if !strings.HasPrefix(key, "spark.") {
			key = "spark.executorEnv." + key
		}
		fmt.Fprintf(&conf, "%s %s\n", key, s.Value)
	}
	w := newWorld(t, standin.WithSpark("3.3.0"), standin.WithRapids(newestRapidsFor(profiles.Request{Spark: "3.3.0"})))
	dir, _ := w.project(t, "services:\n  spark:\n    profile: spark-rapids\n    spark: \"3.3.0\"\n    jupyter: false\n    gpu: optional\n",
		map[string]string{"prod/spark-defaults.conf": conf.String()})
	var outputs []string
	for _, args := range [][]string{
		{"mirror", "prod/spark-defaults.conf", "--print"},
		{"mirror", "prod/spark-defaults.conf", "--print", "--json"},
		{"mirror", "prod/spark-defaults.conf"},
		{"config", "spark", "--explain"},
		{"config", "spark", "--explain", "--json"},
		{"config", "--json"},
		{"diff", "--json"},
		{"export", "compose", "-o", "compose.devenv.yaml"},
		{"export", "k8s", "-o", "k8s"},
		{"export", "devcontainer"},
	} {
		r := w.run(t, dir, args...)
		if r.Code != 0 && args[0] != "diff" {
			t.Fatalf("devenv %s: exit %d\n%s", strings.Join(args, " "), r.Code, r.Stderr)
		}
		outputs = append(outputs, "devenv "+strings.Join(args, " ")+" (stdout)\x00"+r.Stdout, "devenv "+strings.Join(args, " ")+" (stderr)\x00"+r.Stderr)
	}
	var files []string
	// A file the walk cannot read fails the test: one skipped could be the leak.
	if err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasPrefix(rel, "prod"+string(filepath.Separator)) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		outputs = append(outputs, rel+"\x00"+string(b))
		files = append(files, filepath.ToSlash(rel))
		return nil
	}); err != nil {
		t.Fatalf("reading the project's files: %v", err)
	}
	for _, want := range []string{"devenv.yaml", "devenv.lock", "compose.devenv.yaml", ".devcontainer/devcontainer.json", "/spark-defaults.conf", "k8s/"} {
		found := false
		for _, f := range files {
			found = found || f == want || strings.HasSuffix(f, want) || strings.HasPrefix(f, want)
		}
		if !found {
			t.Errorf("no %s among the files written (%v): the commands did not run as meant", want, files)
		}
	}
	for _, out := range outputs {
		name, text, _ := strings.Cut(out, "\x00")
		for _, s := range redacttest.Catalogue {
			if strings.Contains(text, s.Secret) {
				t.Errorf("%s holds the %s secret (%s)", name, s.Name, s.Key)
			}
		}
	}
	for _, f := range []string{"compose.devenv.yaml", ".devcontainer/devcontainer.json"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v (%v), want 0600", f, st.Mode().Perm(), err)
		}
	}
}
