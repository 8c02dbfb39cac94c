package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func entries() []Entry {
	return []Entry{
		{Name: "devenv", Mode: 0o755, Data: []byte("front")},
		{Name: "man/devenv.1", Mode: 0o644, Data: []byte(".TH devenv 1\n")},
		{Name: "completions/devenv.bash", Mode: 0o644, Data: []byte("complete\n")},
		{Name: "README.md", Mode: 0o644, Data: []byte("# devenv\n")},
	}
}

// Two archives of the same files, given in other orders, from files with
// other times, are the same bytes; every time is the epoch's, every owner root.
func TestArchivesAreReproducible(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "core")
	if err := os.WriteFile(src, []byte("core"), 0o755); err != nil {
		t.Fatal(err)
	}
	epoch := time.Unix(1764547200, 0)
	for _, ext := range []string{"tar.gz", "zip"} {
		t.Run(ext, func(t *testing.T) {
			write := WriteTarGz
			if ext == "zip" {
				write = WriteZip
			}
			a, b := filepath.Join(dir, "a."+ext), filepath.Join(dir, "b."+ext)
			es := append(entries(), Entry{Name: "devenv-core", Mode: 0o755, Src: src})
			if err := write(a, "devenv_1.0.0_linux_amd64", es, epoch); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(src, time.Now(), time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			rev := make([]Entry, len(es))
			for i, e := range es {
				rev[len(es)-1-i] = e
			}
			if err := write(b, "devenv_1.0.0_linux_amd64", rev, epoch); err != nil {
				t.Fatal(err)
			}
			ab, bb := readAll(t, a), readAll(t, b)
			if !bytes.Equal(ab, bb) {
				t.Fatalf("two archives of the same files differ")
			}
			names := listNames(t, a, ext, epoch)
			want := "devenv_1.0.0_linux_amd64/ devenv_1.0.0_linux_amd64/README.md devenv_1.0.0_linux_amd64/completions/ " +
				"devenv_1.0.0_linux_amd64/completions/devenv.bash devenv_1.0.0_linux_amd64/devenv devenv_1.0.0_linux_amd64/devenv-core " +
				"devenv_1.0.0_linux_amd64/man/ devenv_1.0.0_linux_amd64/man/devenv.1"
			if got := strings.Join(names, " "); got != want {
				t.Errorf("entries:\n got %s\nwant %s", got, want)
			}
		})
	}
}

func readAll(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func listNames(t *testing.T, p, ext string, epoch time.Time) []string {
	t.Helper()
	var names []string
	if ext == "zip" {
		zr, err := zip.OpenReader(p)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = zr.Close() }()
		for _, f := range zr.File {
			if !f.Modified.Equal(epoch) {
				t.Errorf("%s: time %v, want %v", f.Name, f.Modified, epoch)
			}
			names = append(names, f.Name)
		}
		return names
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if gz.Name != "" || !gz.ModTime.IsZero() {
		t.Errorf("gzip header carries name %q, time %v", gz.Name, gz.ModTime)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(epoch) || h.Uid != 0 || h.Gid != 0 || h.Uname != "root" {
			t.Errorf("%s: time %v uid %d gid %d uname %q", h.Name, h.ModTime, h.Uid, h.Gid, h.Uname)
		}
		if h.Name == "devenv_1.0.0_linux_amd64/devenv" && h.Mode != 0o755 {
			t.Errorf("devenv mode %o", h.Mode)
		}
		names = append(names, h.Name)
	}
}

func TestChecksumsAreSha256sumLines(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"b.deb": "b", "a.tar.gz": "a"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text, sums, err := Checksums([]string{filepath.Join(dir, "b.deb"), filepath.Join(dir, "a.tar.gz")})
	if err != nil {
		t.Fatal(err)
	}
	want := "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb  a.tar.gz\n" +
		"3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d  b.deb\n"
	if text != want || sums["a.tar.gz"] == "" {
		t.Errorf("checksums.txt:\n%s\nwant\n%s", text, want)
	}
	if _, _, err := Checksums([]string{filepath.Join(dir, "a.tar.gz"), filepath.Join(dir, "a.tar.gz")}); err == nil {
		t.Error("two files of one name: want an error")
	}
}

func TestFormulaAndScoopNameTheArchives(t *testing.T) {
	arch := []Published{
		{Target{"darwin", "arm64"}, "devenv_1.2.0_darwin_arm64.tar.gz", "aa"},
		{Target{"linux", "amd64"}, "devenv_1.2.0_linux_amd64.tar.gz", "bb"},
		{Target{"windows", "amd64"}, "devenv_1.2.0_windows_amd64.zip", "cc"},
	}
	f, err := Formula("v1.2.0", "1.2.0", arch)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  on_macos do\n    on_arm do\n      url \"https://github.com/devenv-dev/devenv/releases/download/v1.2.0/devenv_1.2.0_darwin_arm64.tar.gz\"\n      sha256 \"aa\"\n    end\n  end",
		"  on_linux do\n    on_intel do\n", `sha256 "bb"`, `bin.install "devenv", "devenv-core"`, `man1.install "man/devenv.1"`,
		`zsh_completion.install "completions/_devenv"`,
	} {
		if !strings.Contains(f, want) {
			t.Errorf("formula lacks %q:\n%s", want, f)
		}
	}
	if strings.Contains(f, "windows") {
		t.Errorf("formula names the Windows archive:\n%s", f)
	}
	s, err := Scoop("v1.2.0", "1.2.0", arch)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s, `"hash": "cc"`) || !strings.Contains(s, `"extract_dir": "devenv_1.2.0_windows_amd64"`) || !strings.Contains(s, "download/v1.2.0/devenv_1.2.0_windows_amd64.zip") {
		t.Errorf("scoop manifest:\n%s", s)
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"2.34", "2.4", 1}, {"2.2.5", "2.34", -1}, {"2.34", "2.34", 0}, {"2.17", "2.17.0", 0}, {"3.0", "2.99", 1}} {
		if got := CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// The test binary itself is an ELF program: MaxGlibc reads its imports
// (a cgo-free test binary is static and needs none).
func TestMaxGlibcReadsAnELF(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	v, sym, err := MaxGlibc(self)
	if err != nil {
		t.Fatal(err)
	}
	if v != "" && sym == "" {
		t.Errorf("version %s without a symbol", v)
	}
	if _, _, err := MaxGlibc(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing file: want an error")
	}
	if err := CheckGlibc(self, "2.0"); v != "" && err == nil {
		t.Errorf("floor 2.0 below %s: want an error", v)
	}
}

func TestParseTargets(t *testing.T) {
	ts, err := ParseTargets("linux/amd64, darwin/arm64")
	if err != nil || len(ts) != 2 || ts[1] != (Target{"darwin", "arm64"}) {
		t.Errorf("ParseTargets = %v, %v", ts, err)
	}
	if _, err := ParseTargets("linux"); err == nil {
		t.Error("want an error for a target without an arch")
	}
	if ts, _ := ParseTargets("all"); len(ts) != len(AllTargets) {
		t.Errorf("all = %v", ts)
	}
}

func TestNfpmConfigInstallsWhereToolsLook(t *testing.T) {
	b, err := NfpmConfig("amd64", "v1.0.0", "/stage")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"dst": "/usr/bin/devenv"`, `"dst": "/usr/bin/devenv-core"`, `"dst": "/usr/libexec/docker/cli-plugins/docker-devenv"`,
		`"dst": "/usr/share/bash-completion/completions/devenv"`, `"dst": "/usr/share/zsh/vendor-completions/_devenv"`,
		`"dst": "/usr/share/fish/vendor_completions.d/devenv.fish"`, `"dst": "/usr/share/man/man1/devenv.1.gz"`, `libc6 (\u003e= 2.34)`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("nfpm config lacks %s:\n%s", want, b)
		}
	}
}
