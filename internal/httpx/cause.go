package httpx

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
)

// NetFailure is what a request's error says about the network: the name
// did not resolve, nothing listened, or the server did not answer in time.
type NetFailure int

const (
	NetNone    NetFailure = iota // not a network failure (an answer, or another error)
	NetDNS                       // the host name does not resolve
	NetRefused                   // connection refused: nothing listens there
	NetTimeout                   // connecting, or the answer, took too long
)

// Classify reads err's chain for a network cause. It is checked before
// anything a server said: a server never reached said nothing.
func Classify(err error) NetFailure {
	var dns *net.DNSError
	switch {
	case err == nil:
		return NetNone
	case errors.As(err, &dns):
		if dns.IsTimeout {
			return NetTimeout
		}
		return NetDNS
	case errors.Is(err, syscall.ECONNREFUSED):
		return NetRefused
	case errors.Is(err, context.DeadlineExceeded):
		return NetTimeout
	}
	var t interface{ Timeout() bool }
	if errors.As(err, &t) && t.Timeout() {
		return NetTimeout
	}
	return NetNone
}

// Describe says the failure in words, naming host ("" for NetNone).
func (f NetFailure) Describe(host string) string {
	switch f {
	case NetDNS:
		return fmt.Sprintf("network: the name %s does not resolve (DNS: no such host); this machine has no route to it", hostOnly(host))
	case NetRefused:
		return fmt.Sprintf("network: connection refused by %s (nothing listens there)", host)
	case NetTimeout:
		return fmt.Sprintf("network: timeout: %s did not answer in time; check the network or proxy (HTTPS_PROXY)", host)
	}
	return ""
}

func hostOnly(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return host
}
