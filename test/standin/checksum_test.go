package standin

import (
	"crypto/sha512"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGPGLayoutMatchesRealGPG checks the older .sha512 layout against files
// that gpg itself wrote (testdata/gpg/SOURCES.md).
func TestGPGLayoutMatchesRealGPG(t *testing.T) {
	files, err := filepath.Glob("testdata/gpg/*.sha512")
	if err != nil || len(files) < 5 {
		t.Fatalf("want the 5 gpg fixtures in testdata/gpg, found %d (%v)", len(files), err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sha512")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := sha512File(SHA512GPG, name, []byte(name)); got != string(want) {
				t.Errorf("layout differs from gpg's\n--- got:\n%s--- gpg:\n%s", got, want)
			}
		})
	}
}

func TestSHA512Formats(t *testing.T) {
	data := []byte("spark")
	sum := sha512.Sum512(data)
	hexSum := hex.EncodeToString(sum[:])
	tests := []struct {
		format SHA512Format
		name   string
		want   func(string) bool
	}{
		{SHA512Coreutils, "coreutils", func(s string) bool { return s == hexSum+"  spark.tgz\n" }},
		{SHA512GPG, "gpg", func(s string) bool {
			return strings.HasPrefix(s, "spark.tgz: ") && strings.ToLower(strings.Join(strings.Fields(strings.TrimPrefix(s, "spark.tgz: ")), "")) == hexSum
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sha512File(tt.format, "spark.tgz", data); !tt.want(got) {
				t.Errorf("sha512File = %q, want the %s layout of %s", got, tt.name, hexSum)
			}
		})
	}
}
