package redact

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// TestURLsMasksCredentialsInMessages: every shape a mirror URL with a
// password takes in an error message loses the password and keeps the
// rest; text without credentials is unchanged.
func TestURLsMasksCredentialsInMessages(t *testing.T) {
	_, parseErr := url.Parse("https://bob:s3cr%zzet@maven.corp/x")
	tests := []struct{ in, want string }{
		{"download https://bob:hunter2@maven.corp/maven2/a.jar: 404", "download https://bob:" + Mask + "@maven.corp/maven2/a.jar: 404"},
		{`Get "https://bob:hunter2@pypi.corp/simple/": dial tcp: refused`, `Get "https://bob:` + Mask + `@pypi.corp/simple/": dial tcp: refused`},
		{parseErr.Error(), `parse "https://bob:` + Mask + `@maven.corp/x": invalid URL escape "%zz"`},
		{"https://bob:p@ss@host/x", "https://bob:" + Mask + "@host/x"},
		{"http://u:p/ss@host:8081/m", "http://u:" + Mask + "@host:8081/m"},
		{"two: https://a:x@h1/ and http://b:y@h2", "two: https://a:" + Mask + "@h1/ and http://b:" + Mask + "@h2"},
		{"https://token@host/x", "https://token@host/x"},
		{"https://repo1.maven.org/maven2/@scope/x:1@2", "https://repo1.maven.org/maven2/@scope/x:1@2"},
		{"no url here: user:pass@host", "no url here: user:pass@host"},
		{"https://maven.corp/maven2", "https://maven.corp/maven2"},
	}
	for _, tt := range tests {
		if got := URLs(tt.in); got != tt.want {
			t.Errorf("URLs(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestErrorKeepsTheChain(t *testing.T) {
	base := errors.New("boom")
	err := Error(fmt.Errorf("download https://u:topsecret@h/x: %w", base))
	if strings.Contains(err.Error(), "topsecret") || !errors.Is(err, base) {
		t.Fatalf("Error = %q (is base: %v)", err, errors.Is(err, base))
	}
	if plain := errors.New("x"); Error(plain) != plain { //nolint:errorlint // identity: returned as it is
		t.Error("an error without credentials is not returned as it is")
	}
}
