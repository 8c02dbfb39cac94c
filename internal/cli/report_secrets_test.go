package cli

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// TestReportMasksURLCredentials: whatever error reaches the CLI carrying a
// mirror URL with a password (net/url's parse error quotes it whole), the
// text, --json and --debug renderings show the user but not the password.
func TestReportMasksURLCredentials(t *testing.T) {
	_, parseErr := url.Parse("https://bob:hunter2@pypi.corp/%zz")
	err := fmt.Errorf("lock: %w", fmt.Errorf("artifact x: download https://bob:hunter2@maven.corp/a.jar: %w", parseErr))
	for _, mode := range []struct {
		name        string
		debug, json bool
	}{{"text", false, false}, {"json", false, true}, {"debug", true, false}} {
		var w bytes.Buffer
		report(err, &w, mode.debug, mode.json)
		if strings.Contains(w.String(), "hunter2") || !strings.Contains(w.String(), "bob:") {
			t.Errorf("%s: %s", mode.name, w.String())
		}
	}
}
