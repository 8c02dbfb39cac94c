package cli

import (
	"io"
	"strings"
	"testing"
)

func TestReorder(t *testing.T) {
	app := newApp(Streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	tests := []struct{ in, want string }{
		{"devenv logs spark --tail 5", "devenv logs --tail 5 spark"},
		{"devenv logs spark --tail=5 -F", "devenv logs --tail=5 -F spark"},
		{"devenv --json up spark web --wait", "devenv --json up --wait spark web"},
		{"devenv exec spark -T -- sh -c --json", "devenv exec -T spark -- sh -c --json"},
		{"devenv mirror prod/x.json --print --service s", "devenv mirror --print --service s prod/x.json"},
		{"devenv config --json", "devenv config --json"},
		{"devenv lock --upgrade serve", "devenv lock --upgrade serve"},
		{"devenv -f other.yaml ps", "devenv -f other.yaml ps"},
		{"devenv", "devenv"},
	}
	for _, tt := range tests {
		got := strings.Join(reorder(app, strings.Fields(tt.in)), " ")
		if got != tt.want {
			t.Errorf("reorder(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
