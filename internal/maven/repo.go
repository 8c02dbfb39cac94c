package maven

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// ErrNotFound is what a Source returns for a file the repository does not
// have (HTTP 404).
var ErrNotFound = errors.New("not found")

// Source reads small files (POMs, maven-metadata.xml) from a repository.
type Source interface {
	Get(ctx context.Context, url string) ([]byte, error)
}

// maxPOMSize bounds one POM or metadata file (the largest POMs on Maven
// Central, BOMs of cloud SDKs, are about 1 MB).
const maxPOMSize = 8 << 20

// HTTP is a Source over HTTP (the client's own limits apply).
type HTTP struct{ Client *http.Client }

// Get fetches url, at most maxPOMSize bytes.
func (h HTTP) Get(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	client := h.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w (is the mirror in devenv.yaml `mirrors: maven:` reachable?)", url, err)
	}
	defer func() { _ = resp.Body.Close() }()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, fmt.Errorf("get %s: %w", url, ErrNotFound)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("get %s: %s", url, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxPOMSize+1))
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", url, err)
	}
	if len(data) > maxPOMSize {
		return nil, fmt.Errorf("get %s: larger than %d MB, which no POM is; check the mirror", url, maxPOMSize>>20)
	}
	return data, nil
}
