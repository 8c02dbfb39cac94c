// Package credproxy serves a package index that needs credentials on this
// machine's loopback, adding the credentials itself, so that an image build
// can use the index without the credentials ever being a build argument,
// a file in the build context or an ENV (the classic builder records build
// argument values in the image history).
package credproxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Proxy is a running credential proxy.
type Proxy struct {
	local    *url.URL // the index as the build sees it: no credentials
	server   *http.Server
	listener net.Listener
}

// Start serves upstream (an http(s) URL with user:password) on 127.0.0.1 at
// a free port until Close. Requests go to upstream's host with the
// credentials as basic auth; upstream's origin in redirects and index pages
// is rewritten to the proxy's, so absolute links keep going through it.
func Start(upstream string) (*Proxy, error) {
	up, err := url.Parse(upstream)
	if err != nil || up.Host == "" || (up.Scheme != "http" && up.Scheme != "https") {
		return nil, fmt.Errorf("PyPI mirror %s is not an http(s) URL", redact(upstream))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("starting the local proxy for PyPI mirror %s: %w", up.Redacted(), err)
	}
	local := &url.URL{Scheme: "http", Host: ln.Addr().String(), Path: up.Path}
	p := &Proxy{local: local, listener: ln}
	p.server = &http.Server{Handler: handler(up, local), ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = p.server.Serve(ln) }()
	return p, nil
}

// URL is the index URL to give pip: the proxy's, without credentials.
func (p *Proxy) URL() string { return p.local.String() }

// Close stops the proxy and its connections.
func (p *Proxy) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := p.server.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return p.server.Close()
}

func handler(up, local *url.URL) http.Handler {
	user := up.User.Username()
	pass, _ := up.User.Password()
	origin := up.Scheme + "://" + up.Host
	mine := local.Scheme + "://" + local.Host
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme, r.Out.URL.Host, r.Out.Host = up.Scheme, up.Host, up.Host
			r.Out.Header.Del("Accept-Encoding") // plain bodies, so links can be rewritten
			r.Out.Header.Del("Authorization")
			if up.User != nil {
				r.Out.SetBasicAuth(user, pass)
			}
		},
		ModifyResponse: func(resp *http.Response) error {
			if loc := resp.Header.Get("Location"); strings.HasPrefix(loc, origin) {
				resp.Header.Set("Location", mine+strings.TrimPrefix(loc, origin))
			}
			return rewriteBody(resp, origin, mine)
		},
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			http.Error(w, fmt.Sprintf("devenv's proxy could not reach the PyPI mirror %s: %v", origin, err), http.StatusBadGateway)
		},
	}
}

// rewriteBody points absolute links of index pages at the proxy.
func rewriteBody(resp *http.Response, origin, mine string) error {
	ct := resp.Header.Get("Content-Type")
	if !strings.Contains(ct, "html") && !strings.Contains(ct, "json") {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close() // replaced below; a read error is what counts
	if err != nil {
		return err
	}
	body = bytes.ReplaceAll(body, []byte(origin), []byte(mine))
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "<unparsable URL>"
	}
	return u.Redacted()
}
