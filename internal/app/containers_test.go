package app

import (
	"strings"
	"testing"
)

func TestLineWriter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string // split anywhere
		want   []string
	}{
		{"whole lines", []string{"a\nb\n"}, []string{"a\n", "b\n"}},
		{"a line split over writes", []string{"a\nb", "c\n"}, []string{"a\n", "bc\n"}},
		{"a last line without a newline gets one", []string{"partial"}, []string{"partial\n"}},
		{"nothing", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			w := &lineWriter{emit: func(l []byte) { got = append(got, string(l)) }}
			for _, s := range tt.writes {
				if _, err := w.Write([]byte(s)); err != nil {
					t.Fatal(err)
				}
			}
			w.flush()
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRunTarget(t *testing.T) {
	p := New(testProject(t, twoServices), Options{})
	onlyBox := New(testProject(t, "name: demo\nservices:\n  box:\n    profile: image\n    image: debian:12\n"), Options{})
	tests := []struct {
		name        string
		args        []string
		noSpark     bool
		wantService string
		wantCmd     string
		wantErr     string
	}{
		{"service and --", []string{"box", "--", "ls", "-l"}, false, "box", "ls -l", ""},
		{"only the command", []string{"spark-submit", "job.py"}, false, "spark", "spark-submit job.py", ""},
		{"-- kept by the parser", []string{"--", "spark-submit", "job.py"}, false, "spark", "spark-submit job.py", ""},
		{"service without --", []string{"box", "ls"}, false, "box", "ls", ""},
		{"a command after -- that names a service", []string{"--", "box"}, false, "spark", "box", ""},
		{"no command", []string{"box", "--"}, false, "", "", ErrNoCommand.Error()},
		{"nothing", nil, false, "", "", ErrNoCommand.Error()},
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
			svc, cmd, err := proj.RunTarget(tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || svc != tt.wantService || strings.Join(cmd, " ") != tt.wantCmd {
				t.Fatalf("got %q %q %v, want %q %q", svc, cmd, err, tt.wantService, tt.wantCmd)
			}
		})
	}
}

// TestLogsPrefixed: lines carry their service's name whenever more than
// one service's lines can come, a compose service counting like any other.
func TestLogsPrefixed(t *testing.T) {
	one := "name: demo\nservices:\n  app:\n    profile: image\n    image: x:1\n"
	tests := []struct {
		name     string
		yaml     string
		compose  bool
		services []string
		want     bool
	}{
		{"one service", one, false, nil, false},
		{"one service and a compose service", "name: demo\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    image: x:1\n", true, nil, true},
		{"the compose service alone", "name: demo\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    image: x:1\n", true, []string{"db"}, false},
		{"two named", "name: demo\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    image: x:1\n", true, []string{"app", "db"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			if tt.compose {
				files["compose.yaml"] = "services:\n  db:\n    image: postgres:16\n"
			}
			p := newWorld(t, tt.yaml, files).open(t)
			if got := p.LogsPrefixed(tt.services); got != tt.want {
				t.Errorf("LogsPrefixed(%v) = %v, want %v", tt.services, got, tt.want)
			}
		})
	}
}
