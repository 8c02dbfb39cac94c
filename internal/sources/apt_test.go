package sources

import (
	"strings"
	"testing"
)

func TestAPTMirrorProblem(t *testing.T) {
	cases := []struct {
		url, want string // want: a part of the problem, "" for none
	}{
		{"http://deb.debian.org", ""},
		{"https://artifactory.corp.example/artifactory/debian-remote/", ""},
		{"http://127.0.0.1:3142", ""},
		{"http://[::1]:3142/apt", ""},
		{"deb.debian.org/debian", "not an http(s) URL"},
		{"ftp://deb.debian.org/debian", "not an http(s) URL"},
		{"https://deploy:s3cret@apt.corp.example/debian", "credentials"},
		{"https://token@apt.corp.example", "credentials"},
		{"deploy:s3cret@apt.corp.example", "credentials"},
		{"http://apt.corp.example/debian?token=x", "query or fragment"},
		{"http://apt.corp.example/debian#x", "query or fragment"},
		{"http://apt.corp.example/deb ian", "path"},
		{"http://apt.corp.example/a&b", "path"},
		{"http://apt.corp.example/a'b", "path"},
	}
	for _, tc := range cases {
		got := APTMirrorProblem(tc.url)
		switch {
		case tc.want == "" && got != "":
			t.Errorf("APTMirrorProblem(%q) = %q, want none", tc.url, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("APTMirrorProblem(%q) = %q, want it to say %q", tc.url, got, tc.want)
		case strings.Contains(got, "s3cret"):
			t.Errorf("APTMirrorProblem(%q) repeats the password: %q", tc.url, got)
		}
	}
}

func TestFromEnvAPT(t *testing.T) {
	got := FromEnv(Mirrors{APT: "http://from-yaml"}, func(k string) string {
		return map[string]string{"DEVENV_MIRROR_APT": "http://from-env/"}[k]
	})
	if got.APT != "http://from-env" {
		t.Fatalf("APT = %q, want the environment's, without its trailing slash", got.APT)
	}
	if kept := FromEnv(Mirrors{APT: "http://from-yaml"}, func(string) string { return "" }); kept.APT != "http://from-yaml" {
		t.Fatalf("APT = %q, want devenv.yaml's", kept.APT)
	}
}
