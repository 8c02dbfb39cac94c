package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/spec"
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/exitcode"
)

// runProject is a project of box (plain image) and, with spark, a
// spark-rapids service: the services run picks from.
func runProject(t *testing.T, spark bool) *app.Project {
	t.Helper()
	yaml := "name: demo\nservices:\n  box:\n    profile: image\n    image: debian:12\n"
	if spark {
		yaml += "  spark:\n    profile: spark-rapids\n    jupyter: false\n    gpu: optional\n"
	}
	dir := t.TempDir()
	p, err := spec.Parse(filepath.Join(dir, "devenv.yaml"), []byte(yaml), dir)
	if err != nil {
		t.Fatal(err)
	}
	return app.New(p, app.Options{})
}

func TestSplitRunArgs(t *testing.T) {
	p, onlyBox := runProject(t, true), runProject(t, false)
	tests := []struct {
		name        string
		args        []string
		noSpark     bool
		wantService string
		wantCmd     string
		wantErr     string
	}{
		{"service and --", []string{"box", "--", "ls", "-l"}, false, "box", "ls -l", ""},
		{"only --", []string{"spark-submit", "job.py"}, false, "spark", "spark-submit job.py", ""},
		{"-- kept by the parser", []string{"--", "spark-submit", "job.py"}, false, "spark", "spark-submit job.py", ""},
		{"service without --", []string{"box", "ls"}, false, "box", "ls", ""},
		{"a command after -- that names a service", []string{"--", "box"}, false, "spark", "box", ""},
		{"no command", []string{"box", "--"}, false, "", "", "usage: devenv run"},
		{"nothing", nil, false, "", "", "usage: devenv run"},
		{"a later -- is the command's", []string{"box", "x", "--", "ls"}, false, "box", "x -- ls", ""},
		{"flags after the service are the command's", []string{"box", "bash", "-c", "echo x"}, false, "box", "bash -c echo x", ""},
		{"a command with its own --", []string{"spark-submit", "job.py", "--", "--date", "x"}, false, "spark", "spark-submit job.py -- --date x", ""},
		{"unknown service", []string{"nope", "--", "ls"}, false, "", "", `no service "nope"`},
		{"no spark service to default to", []string{"--", "ls"}, true, "", "", "no spark-rapids service"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj := p
			if tt.noSpark {
				proj = onlyBox
			}
			svc, cmd, err := splitRunArgs(proj, tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitcode.Of(err) != exitcode.Usage {
					t.Fatalf("err = %v, want a usage error saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || svc != tt.wantService || strings.Join(cmd, " ") != tt.wantCmd {
				t.Fatalf("got %q %q %v, want %q %q", svc, cmd, err, tt.wantService, tt.wantCmd)
			}
		})
	}
}
