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
