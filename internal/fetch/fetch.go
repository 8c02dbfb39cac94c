// Package fetch downloads build artifacts (the Spark distribution, the RAPIDS
// Accelerator jar, extra jars), checks them against the publisher's checksum
// and keeps them in a content-addressed cache, so a lock computes each
// sha256 once and a build reuses the same bytes.
package fetch

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/devenv-dev/devenv/internal/atomicfile"
	"github.com/devenv-dev/devenv/internal/httpx"
	"github.com/devenv-dev/devenv/internal/redact"
)

// Cache is a directory of downloaded files named by their sha256. A file
// is handed out only after its bytes were hashed to its name (once per
// process); one that does not hash to it is removed and fetched again.
type Cache struct {
	Dir    string
	Client *http.Client

	mu       sync.Mutex
	verified map[string]bool // sha256 whose cached bytes were checked
}

// DefaultCache is $DEVENV_CACHE/artifacts, or the user cache dir's devenv/artifacts.
func DefaultCache() (*Cache, error) {
	dir := os.Getenv("DEVENV_CACHE")
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory: %w (set DEVENV_CACHE)", err)
		}
		dir = filepath.Join(base, "devenv")
	}
	return &Cache{Dir: filepath.Join(dir, "artifacts"), Client: httpx.Client(httpx.DefaultLimits())}, nil
}

// Path is where the blob with this sha256 lives in the cache.
func (c *Cache) Path(sha256hex string) string { return filepath.Join(c.Dir, "sha256", sha256hex) }

// Has reports whether the cache holds the blob, its bytes checked against
// its name; a corrupt blob (truncated by a full disk or a crash, edited) is
// removed, so the caller downloads it again.
func (c *Cache) Has(sha256hex string) bool {
	ok, _ := c.intact(sha256hex)
	return ok
}

// intact hashes the cached blob named sha256hex (once per process) and
// removes it when its bytes have another sha256; the error names a corrupt
// entry that could not be removed.
func (c *Cache) intact(sha256hex string) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.verified[sha256hex] {
		if _, err := os.Stat(c.Path(sha256hex)); err == nil {
			return true, nil
		}
		delete(c.verified, sha256hex)
	}
	path := c.Path(sha256hex)
	f, err := os.Open(path)
	if err != nil {
		return false, nil //nolint:nilerr // not cached (or unreadable): fetched again
	}
	h := sha256.New()
	_, err = io.Copy(h, f)
	_ = f.Close()
	if err == nil && hex.EncodeToString(h.Sum(nil)) == sha256hex {
		if c.verified == nil {
			c.verified = map[string]bool{}
		}
		c.verified[sha256hex] = true
		return true, nil
	}
	if rmErr := os.Remove(path); rmErr != nil && !os.IsNotExist(rmErr) {
		return false, fmt.Errorf("the artifact cache entry %s is corrupt (its bytes do not hash to its name) and cannot be removed: %w; remove it by hand", path, rmErr)
	}
	return false, nil
}

// ChecksumError says a download did not match the checksum it had to match.
type ChecksumError struct {
	URL, Algo, Want, Got, Source string
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("%s: %s mismatch: %s says %s, the download has %s; the file or the mirror is corrupt or was tampered with: check the mirror, then run devenv lock again",
		redact.URLs(e.URL), e.Algo, redact.URLs(e.Source), e.Want, e.Got)
}

// Verified downloads url, checks it against the publisher's checksum file at
// checksumURL with algo (sha512, sha256 or sha1), stores it and returns its
// sha256 and cached path.
func (c *Cache) Verified(ctx context.Context, url, checksumURL, algo string) (string, string, error) {
	want, err := c.publisherChecksum(ctx, checksumURL, algo)
	if err != nil {
		return "", "", err
	}
	if sum, ok := c.known(url, algo, want); ok {
		return sum, c.Path(sum), nil
	}
	sum, path, got, err := c.download(ctx, url, algo)
	if err != nil {
		return "", "", err
	}
	if !strings.EqualFold(got, want) {
		_ = os.Remove(path) // a blob kept under its own sha256 harms nothing
		return "", "", &ChecksumError{URL: url, Algo: algo, Want: want, Got: got, Source: checksumURL}
	}
	c.remember(url, algo, want, sum)
	return sum, path, nil
}

// known returns the sha256 of a blob already downloaded from url whose
// publisher checksum was the same as now, so a relock does not download a
// 400 MB Spark distribution again.
func (c *Cache) known(url, algo, publisher string) (string, bool) {
	data, err := os.ReadFile(c.indexPath(url))
	if err != nil {
		return "", false
	}
	f := strings.Fields(string(data))
	if len(f) != 3 || f[0] != algo || !strings.EqualFold(f[1], publisher) || !c.Has(f[2]) {
		return "", false
	}
	return f[2], true
}

func (c *Cache) remember(url, algo, publisher, sum string) {
	p := c.indexPath(url)
	if os.MkdirAll(filepath.Dir(p), 0o755) != nil {
		return
	}
	// Best effort: without the entry the next lock downloads once more.
	_ = atomicfile.WriteFile(p, []byte(algo+" "+publisher+" "+sum+"\n"), 0o644)
}

func (c *Cache) indexPath(url string) string {
	h := sha256.Sum256([]byte(url))
	return filepath.Join(c.Dir, "urls", hex.EncodeToString(h[:]))
}

// Get returns the cached path of the blob with this sha256, downloading it
// from url when absent and refusing bytes with another sha256.
func (c *Cache) Get(ctx context.Context, url, sha256hex string) (string, error) {
	ok, err := c.intact(sha256hex)
	if err != nil {
		return "", err
	}
	if ok {
		return c.Path(sha256hex), nil
	}
	sum, path, _, err := c.download(ctx, url, "sha256")
	if err != nil {
		return "", err
	}
	if sum != sha256hex {
		_ = os.Remove(path) // a blob kept under its own sha256 harms nothing
		return "", &ChecksumError{URL: url, Algo: "sha256", Want: sha256hex, Got: sum, Source: "devenv.lock"}
	}
	return path, nil
}

// downloadTries is how often a download whose server stalled half way is
// started again.
const downloadTries = 3

// download streams url into the cache under its sha256, also computing algo;
// a transfer that stalls half way is started again.
func (c *Cache) download(ctx context.Context, url, algo string) (sum, path, algoSum string, err error) {
	for i := 0; i < downloadTries; i++ {
		sum, path, algoSum, err = c.downloadOnce(ctx, url, algo)
		var stall *httpx.StallError
		if err == nil || !errors.As(err, &stall) || ctx.Err() != nil {
			return sum, path, algoSum, err
		}
	}
	return sum, path, algoSum, err
}

func (c *Cache) downloadOnce(ctx context.Context, url, algo string) (sum, path, algoSum string, err error) {
	h, err := newHash(algo)
	if err != nil {
		return "", "", "", err
	}
	body, err := c.open(ctx, url)
	if err != nil {
		return "", "", "", err
	}
	defer func() { _ = body.Close() }()
	if err := os.MkdirAll(filepath.Join(c.Dir, "sha256"), 0o755); err != nil {
		return "", "", "", err
	}
	tmp, done, err := c.partial(ctx)
	if err != nil {
		return "", "", "", err
	}
	defer done()
	s256 := sha256.New()
	if _, err := io.Copy(io.MultiWriter(tmp, s256, h), body); err != nil {
		_ = tmp.Close() // the copy error is the one to report
		return "", "", "", fmt.Errorf("download %s: %w", redact.URLs(url), redact.Error(err))
	}
	if err := tmp.Close(); err != nil {
		return "", "", "", err
	}
	sum = hex.EncodeToString(s256.Sum(nil))
	path = c.Path(sum)
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", "", "", err
	}
	c.mu.Lock()
	if c.verified == nil {
		c.verified = map[string]bool{}
	}
	c.verified[sum] = true // hashed on the way in
	c.mu.Unlock()
	return sum, path, hex.EncodeToString(h.Sum(nil)), nil
}

func (c *Cache) publisherChecksum(ctx context.Context, url, algo string) (string, error) {
	body, err := c.open(ctx, url)
	if err != nil {
		return "", fmt.Errorf("publisher checksum: %w", err)
	}
	defer func() { _ = body.Close() }()
	data, err := io.ReadAll(io.LimitReader(body, 1<<16))
	if err != nil {
		return "", fmt.Errorf("publisher checksum %s: %w", redact.URLs(url), redact.Error(err))
	}
	sum, err := ParseChecksum(data, algo)
	if err != nil {
		return "", fmt.Errorf("publisher checksum %s: %w; check that the mirror serves the publisher's files", redact.URLs(url), err)
	}
	return sum, nil
}

func (c *Cache) open(ctx context.Context, url string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, redact.Error(err) // net/url's parse error quotes the URL, password included
	}
	client := c.Client
	if client == nil {
		client = httpx.Client(httpx.DefaultLimits())
	}
	resp, err := client.Do(req)
	if err != nil {
		if f := httpx.Classify(err); f != httpx.NetNone {
			return nil, fmt.Errorf("download %s: %s: point `mirrors.maven` or `mirrors.apache` in devenv.yaml at a mirror this machine reaches (%w)", redact.URLs(url), f.Describe(req.URL.Host), redact.Error(err))
		}
		return nil, fmt.Errorf("download %s: %w (is the mirror in devenv.yaml `mirrors:` reachable?)", redact.URLs(url), redact.Error(err))
	}
	if resp.StatusCode != http.StatusOK {
		_ = resp.Body.Close()
		return nil, fmt.Errorf("download %s: %s (check the version exists there, or set `mirrors:`)", redact.URLs(url), resp.Status)
	}
	return resp.Body, nil
}

// ParseChecksum reads a publisher's checksum file: "<hex>  name", "<hex>", or
// the Apache archive's older "name: ABCD EF01 ..." form spread over lines.
func ParseChecksum(data []byte, algo string) (string, error) {
	want := map[string]int{"sha512": 128, "sha256": 64, "sha1": 40}[algo]
	if want == 0 {
		return "", fmt.Errorf("unknown checksum algorithm %q", algo)
	}
	text := string(data)
	if i := strings.Index(text, ":"); i >= 0 && !isHex(strings.TrimSpace(text[:i])) {
		text = text[i+1:]
	}
	var b strings.Builder
	for _, f := range strings.Fields(text) {
		if !isHex(f) {
			break
		}
		b.WriteString(strings.ToLower(f))
		if b.Len() >= want {
			break
		}
	}
	if b.Len() != want {
		return "", fmt.Errorf("%s checksum file is not in a known format (want %d hex digits)", algo, want)
	}
	return b.String(), nil
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	_, err := hex.DecodeString(strings.Repeat("0", len(s)%2) + s)
	return err == nil
}

func newHash(algo string) (hash.Hash, error) {
	switch algo {
	case "sha512":
		return sha512.New(), nil
	case "sha256":
		return sha256.New(), nil
	case "sha1":
		return sha1.New(), nil
	}
	return nil, errors.New("unknown checksum algorithm " + algo)
}
