//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadNoLinksRefusesEveryLink: a link at the file or at a directory on
// the way is refused even when it stays inside; so are FIFOs, files over
// the limit and paths outside; a plain file reads.
func TestReadNoLinksRefusesEveryLink(t *testing.T) {
	project, outside := t.TempDir(), t.TempDir()
	for _, d := range []string{"app", "real"} {
		if err := os.Mkdir(filepath.Join(project, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(project, "app", "Dockerfile"), "FROM a:1\n")
	write(t, filepath.Join(project, "real", "Dockerfile"), "FROM a:1\n")
	write(t, filepath.Join(project, "app", "big"), strings.Repeat("x", 2048))
	write(t, filepath.Join(outside, "Dockerfile"), "FROM a:1\n")
	link(t, "Dockerfile", filepath.Join(project, "app", "Dockerfile.link"))
	link(t, "real", filepath.Join(project, "linked"))
	mkfifo(t, filepath.Join(project, "app", "fifo"))
	tests := []struct {
		name, file string
		want       error
		says, at   string // at: the path the error names ("" the file)
	}{
		{"a regular file", "app/Dockerfile", nil, "", ""},
		{"a link to a file beside it", "app/Dockerfile.link", ErrLink, "is a symbolic link (to Dockerfile)", ""},
		{"a linked directory on the way", "linked/Dockerfile", ErrLink, "is a symbolic link (to real)", "linked"},
		{"a FIFO", "app/fifo", ErrNotRegular, "is a FIFO", ""},
		{"over the limit", "app/big", ErrTooLarge, "is over 1024 bytes", ""},
		{"outside", filepath.Join(outside, "Dockerfile"), ErrOutside, "outside the project directory", ""},
		{"dot-dot", "../x/Dockerfile", ErrOutside, "outside the project directory", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.file
			if !filepath.IsAbs(p) {
				p = filepath.Join(project, p)
			}
			at := p
			if tt.at != "" {
				at = filepath.Join(project, tt.at)
			}
			_, err := within(t, func() error { _, err := ReadNoLinks(project, p, 1024); return err })
			check(t, err, tt.want, at, tt.says)
		})
	}
}
