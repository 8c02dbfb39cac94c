package spec

import (
	"strings"
	"testing"
)

func TestParsePort(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Port
		err  string
	}{
		{in: "8888", want: Port{Container: 8888, Protocol: "tcp"}},
		{in: "4040:4041", want: Port{Host: 4040, Container: 4041, Protocol: "tcp"}},
		{in: "0.0.0.0:8080:80", want: Port{HostIP: "0.0.0.0", Host: 8080, Container: 80, Protocol: "tcp"}},
		{in: "9000/udp", want: Port{Container: 9000, Protocol: "udp"}},
		{in: "[::1]:8080:80/udp", want: Port{HostIP: "::1", Host: 8080, Container: 80, Protocol: "udp"}},
		{in: "0", err: "out of range"},
		{in: "65536", err: "out of range"},
		{in: "80/sctp", err: "not tcp or udp"},
		{in: "1-2", err: "ranges"},
		{in: "x:80:80", err: "not an IP"},
		{in: ":80", err: "missing"},
		{in: "[::1:80:80", err: "IPv6"},
		{in: "1:2:3:4", err: "too many"},
	} {
		got, err := parsePort(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("parsePort(%q) error = %v, want one containing %q", c.in, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("parsePort(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestParseVolume(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Volume
		err  string
	}{
		{in: "./data:/data:ro", want: Volume{Source: "./data", Target: "/data", ReadOnly: true}},
		{in: "cache:/root/.cache", want: Volume{Source: "cache", Target: "/root/.cache", Named: true}},
		{in: "/srv:/srv:rw", want: Volume{Source: "/srv", Target: "/srv"}},
		{in: "/data", err: "source:target"},
		{in: "a:b:c:d", err: "source:target"},
		{in: "./a:rel", err: "absolute"},
		{in: "~/x:/x", err: "'~'"},
		{in: "./a:/a:z", err: "not ro or rw"},
		{in: ":/a", err: "empty"},
		{in: "bad name:/a", err: "neither a path"},
	} {
		got, err := parseVolume(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("parseVolume(%q) error = %v, want one containing %q", c.in, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("parseVolume(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestCheckVersion(t *testing.T) {
	for _, c := range []struct {
		key, v string
		ok     bool
	}{
		{"spark", "3.5.1", true}, {"spark", "3.5", true}, {"spark", "3", false},
		{"rapids", "25.06.0", true}, {"rapids", "25.06", true}, {"rapids", "25", false},
		{"scala", "2.12", true}, {"scala", "2.13", true}, {"scala", "2.11", false},
		{"java", "8", true}, {"java", "21", true}, {"java", "1.8", false},
		{"cuda", "12", true}, {"cuda", "12.9", true}, {"cuda", "12.9.1", true}, {"cuda", "12.x", false},
		{"release", "25.01", true}, {"release", "25.00", false}, {"release", "2025.01", false},
		{"python", "3.11", true}, {"python", "2.7", false},
	} {
		msg, _ := checkVersion(c.key, c.v)
		if (msg == "") != c.ok {
			t.Errorf("checkVersion(%q, %q) = %q, want ok=%v", c.key, c.v, msg, c.ok)
		}
	}
}

func TestDockerName(t *testing.T) {
	for in, want := range map[string]string{
		"fraud-features": "fraud-features",
		"Fraud Features": "fraud-features",
		"_x.y":           "x-y",
		"...":            "devenv",
		"":               "devenv",
		"my_dir_":        "my_dir",
		"a___b":          "a-b",
		"x--y":           "x--y",
	} {
		if got := DockerName(in); got != want || projectNameProblem(got) != "" {
			t.Errorf("DockerName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSuggest(t *testing.T) {
	keys := []string{"volumes", "ports", "profile", "spark"}
	for in, want := range map[string]string{
		"volume": "volumes", "prots": "ports", "Profile": "profile", "zzz": "", "x": "",
	} {
		if got := suggest(in, keys); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}
