package fastup

import (
	"os"
	"strings"
	"testing"
)

func TestPlainUp(t *testing.T) {
	tests := []struct {
		args       []string
		ok         bool
		json, dbug bool
	}{
		{[]string{"devenv", "up"}, true, false, false},
		{[]string{"devenv", "up", "-d"}, true, false, false},
		{[]string{"devenv", "up", "--detach", "--json"}, true, true, false},
		{[]string{"devenv", "--json", "up"}, true, true, false},
		{[]string{"devenv", "--debug", "up", "-d"}, true, false, true},
		{[]string{"devenv"}, false, false, false},
		{[]string{"devenv", "-d", "up"}, false, false, false},          // -d before up is not up's
		{[]string{"devenv", "up", "app"}, false, false, false},         // a service named
		{[]string{"devenv", "up", "--wait"}, false, false, false},      // waits for health
		{[]string{"devenv", "-p", "other", "up"}, false, false, false}, // another project
		{[]string{"devenv", "up", "--profile", "gpu"}, false, false, false},
		{[]string{"devenv", "up", "up"}, false, false, false},
		{[]string{"devenv", "ps"}, false, false, false},
		{[]string{"devenv", "up", "--json=false"}, false, false, false}, // spelled otherwise: devenv's to read
	}
	for _, tt := range tests {
		f, ok := plainUp(tt.args)
		if ok != tt.ok || ok && (f.json != tt.json || f.debug != tt.dbug) {
			t.Errorf("plainUp(%q) = %+v, %v; want ok %v json %v debug %v", tt.args, f, ok, tt.ok, tt.json, tt.dbug)
		}
	}
}

func TestEnvDigest(t *testing.T) {
	base := []string{"HOME=/home/me", "PATH=/bin", "FOO=1"}
	same := [][]string{
		{"FOO=1", "PATH=/bin", "HOME=/home/me"},                     // order
		append(base, "_=/usr/bin/devenv", "OLDPWD=/tmp", "SHLVL=3"), // what shells change
		append(base, "DEVENV_FASTUP=1"),                             // the switch itself
	}
	for _, env := range same {
		if EnvDigest(env) != EnvDigest(base) {
			t.Errorf("EnvDigest(%q) differs from EnvDigest(%q)", env, base)
		}
	}
	differ := [][]string{
		{"HOME=/home/me", "PATH=/bin", "FOO=2"},
		append(base, "COMPOSE_PROFILES=gpu"),
		append(base, "DOCKER_HOST=ssh://box"),
		{"HOME=/home/me", "PATH=/bin"},
	}
	for _, env := range differ {
		if EnvDigest(env) == EnvDigest(base) {
			t.Errorf("EnvDigest(%q) equals EnvDigest(%q)", env, base)
		}
	}
}

func TestGetenv(t *testing.T) {
	env := []string{"DEVENV_FASTUPX=1", "DEVENV_FASTUP=0", "A="}
	if got := getenv(env, "DEVENV_FASTUP"); got != "0" {
		t.Errorf("getenv = %q, want 0", got)
	}
	if got := getenv(env, "A"); got != "" {
		t.Errorf("getenv(A) = %q", got)
	}
}

func TestTry(t *testing.T) {
	e := &fakeEngine{containers: []listed{running("c1", "p-app", "img:1", "n1"), running("c2", "p-side", "img:1", "n1")},
		images: map[string]string{"img:1": "sha256:aaa"}, machine: Machine{CPUs: 4, Memory: 8 << 30}}
	dir := t.TempDir()
	r := receiptFor(t, serve(t, e), dir)
	r.Program = ProgramID(dir + "/devenv.yaml") // any file stands for the program
	r.Text, r.JSON = "p is up: 2 unchanged\n", "{\"project\": \"p\"}\n"
	must(t, Write(dir+"/.devenv", r))
	sub := dir + "/src/deep"
	must(t, os.MkdirAll(sub, 0o755))
	tests := []struct {
		name       string
		args       []string
		wd         string
		env        []string
		handled    bool
		out, debug string
	}{
		{"text", []string{"devenv", "up"}, dir, []string{"A=1"}, true, r.Text, ""},
		{"json", []string{"devenv", "up", "--json"}, dir, []string{"A=1"}, true, r.JSON, ""},
		{"debug", []string{"devenv", "up", "--debug"}, dir, []string{"A=1"}, true, r.Text, "fast up: nothing changed"},
		{"switched off", []string{"devenv", "up", "--debug"}, dir, []string{"A=1", "DEVENV_FASTUP=0"}, false, "", "DEVENV_FASTUP=0"},
		{"another directory of the project", []string{"devenv", "up", "--debug"}, sub, []string{"A=1"}, false, "", "the last up ran in"},
		{"no project", []string{"devenv", "up", "--debug"}, t.TempDir(), []string{"A=1"}, false, "", "no devenv.yaml"},
		{"another command", []string{"devenv", "ps"}, dir, []string{"A=1"}, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut strings.Builder
			c := Call{Args: tt.args, Environ: tt.env, WorkDir: tt.wd, Program: dir + "/devenv.yaml", Stdout: &out, Stderr: &errOut}
			if got := Try(t.Context(), c); got != tt.handled || out.String() != tt.out || !strings.Contains(errOut.String(), tt.debug) {
				t.Fatalf("Try = %v, stdout %q, stderr %q; want %v, %q, stderr with %q", got, out.String(), errOut.String(), tt.handled, tt.out, tt.debug)
			}
		})
	}
}

func TestNearest(t *testing.T) {
	dir := t.TempDir()
	write(t, dir+"/p/devenv.yaml", "name: p\n")
	must(t, os.MkdirAll(dir+"/p/a/b", 0o755))
	for wd, want := range map[string]string{dir + "/p/a/b": dir + "/p/devenv.yaml", dir + "/p": dir + "/p/devenv.yaml", dir: ""} {
		if got := Nearest(wd); got != want {
			t.Errorf("Nearest(%s) = %q, want %q", wd, got, want)
		}
	}
}
