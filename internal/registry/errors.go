package registry

import (
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"

	"github.com/devenv-dev/devenv/internal/httpx"
	"github.com/devenv-dev/devenv/internal/redact"
)

// failure is what a registry request's error says about its cause: the
// network (the name, the port, the wait), the credentials, or the image.
type failure int

const (
	failOther failure = iota
	failDNS
	failRefused
	failTimeout
	failAuth
	failNotFound
)

// classify reads err's chain: a network cause (httpx.Classify) wins over
// anything the registry said, since a registry never reached said nothing.
func classify(err error) failure {
	switch httpx.Classify(err) {
	case httpx.NetDNS:
		return failDNS
	case httpx.NetRefused:
		return failRefused
	case httpx.NetTimeout:
		return failTimeout
	}
	var te *transport.Error
	if errors.As(err, &te) {
		switch te.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			return failAuth
		case http.StatusNotFound:
			return failNotFound
		}
	}
	return failOther
}

// registryError is the error of a request to ref's registry: the network
// failure named first, with its host, then the advice that fits it
// (credentials only for a 401 or 403).
func registryError(r name.Reference, what string, err error) error {
	host := r.Context().RegistryStr()
	if what != "" {
		what = ": " + what
	}
	detail := redact.Error(err)
	switch classify(err) {
	case failDNS:
		return fmt.Errorf("registry %s%s: network: the name %s does not resolve (DNS: no such host); this machine has no route to it: point `mirrors.registries` in devenv.yaml at a mirror it can reach (%w)", host, what, hostname(host), detail)
	case failRefused:
		return fmt.Errorf("registry %s%s: network: connection refused by %s (nothing listens there); start the registry or mirror, or fix `mirrors.registries` in devenv.yaml (%w)", host, what, host, detail)
	case failTimeout:
		return fmt.Errorf("registry %s%s: network: timeout: %s did not answer in time; check the network or proxy (HTTPS_PROXY), or point `mirrors.registries` at a mirror this machine reaches (%w)", host, what, host, detail)
	case failAuth:
		return fmt.Errorf("registry %s%s: %w%s", host, what, detail, credentialHint(host))
	case failNotFound:
		return fmt.Errorf("registry %s%s: %w (the registry has no such image: check the name and tag, or that the mirror in `mirrors.registries` serves it)", host, what, detail)
	}
	return fmt.Errorf("registry %s%s: %w (check the name and tag, or set `mirrors.registries`)", host, what, detail)
}

func credentialHint(host string) string {
	if host == "nvcr.io" {
		return " (the registry refused the credentials: log in with `docker login nvcr.io -u '$oauthtoken'` and your NGC API key, set NGC_API_KEY, or point `mirrors.registries` at a mirror)"
	}
	return fmt.Sprintf(" (the registry refused the credentials: `docker login %s`, or set `mirrors.registries`)", host)
}

// hostname is host without its port.
func hostname(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return host
}
