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
		{"devenv exec -T spark -- sh -c --json", "devenv exec -T spark -- sh -c --json"},
		{"devenv exec spark bash -c x", "devenv exec spark bash -c x"},
		{"devenv exec spark -T ls", "devenv exec spark -T ls"},
		{"devenv --json exec -u root spark id -u", "devenv --json exec -u root spark id -u"},
		{"devenv submit job.py --date x", "devenv submit job.py --date x"},
		{"devenv submit --service s job.py -- --date x", "devenv submit --service s job.py -- --date x"},
		{"devenv run spark-submit --conf a=b x.py", "devenv run spark-submit --conf a=b x.py"},
		{"devenv run spark -T -- sh", "devenv run spark -T -- sh"},
		{"devenv mirror prod/x.json --print --service s", "devenv mirror --print --service s prod/x.json"},
		{"devenv config --json", "devenv config --json"},
		{"devenv lock --upgrade serve", "devenv lock --upgrade serve"},
		{"devenv -f other.yaml ps", "devenv -f other.yaml ps"},
		{"devenv", "devenv"},
	}
	for _, tt := range tests {
		got := strings.Join(commandLine(app).Reorder(strings.Fields(tt.in)), " ")
		if got != tt.want {
			t.Errorf("reorder(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
