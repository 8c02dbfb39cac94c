// Package endpoint finds the Docker Engine the docker CLI would use, and
// says what it is: the context it came from, its address, whether it runs on
// this machine, and the ssh target of an ssh engine. It reads the CLI's own
// files through docker/cli's code (config.json's currentContext, the context
// store, TLS material) and dials ssh:// engines with docker/cli's connection
// helper (`ssh ... docker system dial-stdio`), so a context that works for
// `docker` works for devenv. It makes no connection itself.
package endpoint

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/docker/cli/cli/config"
	"github.com/docker/cli/cli/connhelper"
	dcontext "github.com/docker/cli/cli/context"
	"github.com/docker/cli/cli/context/store"
	"github.com/docker/go-connections/tlsconfig"
)

// DefaultContext is the docker CLI's name for the engine of DOCKER_HOST (or
// the local socket) when no other context is chosen.
const DefaultContext = "default"

// dockerEndpoint is the name of the Docker endpoint inside a context (the
// CLI's docker.DockerEndpoint).
const dockerEndpoint = "docker"

// Options say where to look; the zero value reads the process environment
// and ~/.docker (or DOCKER_CONFIG) as the docker CLI does.
type Options struct {
	Context   string              // the --context flag; "" when not given
	Host      string              // the --host flag; "" when not given
	ConfigDir string              // the docker CLI's config folder; "" for DOCKER_CONFIG or ~/.docker
	Getenv    func(string) string // nil for os.Getenv
}

// Kinds of engine address.
const (
	Unix  = "unix"
	TCP   = "tcp"
	SSH   = "ssh"
	NPipe = "npipe"
)

// defaultSocket is the docker CLI's address when nothing else is set.
func defaultSocket() string {
	if runtime.GOOS == "windows" {
		return "npipe:////./pipe/docker_engine"
	}
	return "unix:///var/run/docker.sock"
}

// Endpoint is the resolved engine: facts for messages and decisions, and
// what a client needs to dial it.
type Endpoint struct {
	Context string // the context's name ("default" for DOCKER_HOST or the socket)
	Source  string // why this one: "--context", "DOCKER_CONTEXT", "DOCKER_HOST", "--host", "docker context use", "the default socket"
	Host    string // the address as written, e.g. ssh://me@gpubox, tcp://10.0.0.5:2376, unix:///var/run/docker.sock
	Kind    string // Unix, TCP, SSH or NPipe
	TLS     bool   // TLS material or verification is configured
	// Local is true when the engine runs on this machine (see isLocal).
	Local bool
	// SSH is the ssh target of an ssh engine; nil otherwise.
	SSH *SSHTarget `json:",omitempty"`

	// what the client needs
	tls    *tlsMaterial
	dialer func(ctx context.Context, network, addr string) (net.Conn, error)
	dialTo string // the HTTP host an ssh dialer serves
	getenv func(string) string
	mux    *muxCache
}

// SSHTarget is where an ssh engine lives.
type SSHTarget struct {
	User string
	Host string
	Port string // "" for ssh's default
	Path string // the remote socket, "" for the remote docker's default
}

// Destination is user@host as ssh takes it.
func (t *SSHTarget) Destination() string {
	if t.User == "" {
		return t.Host
	}
	return t.User + "@" + t.Host
}

// SSHCommand is the ssh command line that reaches the target, for hints.
func (t *SSHTarget) SSHCommand() string {
	if t.Port != "" {
		return "ssh -p " + t.Port + " " + t.Destination()
	}
	return "ssh " + t.Destination()
}

// DockerCommand is the docker CLI command that reaches this engine the
// same way, for hints: `docker --context NAME` or plain `docker` (with
// DOCKER_HOST as it is).
func (e *Endpoint) DockerCommand() string {
	if e.Context == DefaultContext || e.Context == "" {
		return "docker"
	}
	return "docker --context " + e.Context
}

// isLocal says whether the engine runs on this machine: a unix socket, a
// named pipe, or a TCP address on the loopback. An ssh engine is remote even
// on 127.0.0.1 (it may be another machine's namespace behind a forward).
// DEVENV_ENGINE_REMOTE=1 marks any engine remote (a unix socket forwarded
// from another machine), =0 any local.
func (e *Endpoint) isLocal(getenv func(string) string) bool {
	switch getenv("DEVENV_ENGINE_REMOTE") {
	case "1", "true":
		return false
	case "0", "false":
		return true
	}
	switch e.Kind {
	case Unix, NPipe:
		return true
	case TCP:
		u, err := url.Parse(e.Host)
		if err != nil {
			return false
		}
		ip := net.ParseIP(u.Hostname())
		return u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback())
	}
	return false
}

// String names the engine for messages: `context "gpu" (ssh://me@gpubox)`.
func (e *Endpoint) String() string {
	if e.Context == DefaultContext || e.Context == "" {
		return e.Host
	}
	return fmt.Sprintf("context %q (%s)", e.Context, e.Host)
}

// HTTPClient is the client to reach the engine with: TLS when configured, the
// ssh helper's connection for ssh engines; nil means the Docker client's own
// default transport for the address. answer bounds the wait for response
// headers (0: none).
func (e *Endpoint) HTTPClient(answer time.Duration) (*http.Client, error) {
	tr := &http.Transport{ResponseHeaderTimeout: answer}
	switch {
	case e.dialer != nil:
		tr.DialContext = e.dialer
	case e.tls != nil:
		cfg, err := e.tls.config()
		if err != nil {
			return nil, err
		}
		tr.TLSClientConfig = cfg
		tr.DialContext = (&net.Dialer{KeepAlive: 30 * time.Second, Timeout: 30 * time.Second}).DialContext
	default:
		return nil, nil
	}
	return &http.Client{Transport: tr}, nil
}

// DialHost is the address the Docker client must be given: the helper's
// placeholder for ssh engines, else Host.
func (e *Endpoint) DialHost() string {
	if e.dialTo != "" {
		return e.dialTo
	}
	return e.Host
}

// Resolve picks the engine as the docker CLI does: --context, else --host,
// else DOCKER_HOST (the default context), else DOCKER_CONTEXT, else
// config.json's currentContext, else the default context.
func Resolve(o Options) (*Endpoint, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	dir := o.ConfigDir
	if dir == "" {
		dir = config.Dir()
	}
	if o.Context != "" && o.Host != "" {
		return nil, fmt.Errorf("both --context and --host are set: give one (the docker CLI refuses both too)")
	}
	name, source, err := contextName(o, getenv, dir)
	if err != nil {
		return nil, err
	}
	var e *Endpoint
	if name == DefaultContext {
		e, err = defaultEndpoint(o, getenv, source)
	} else {
		e, err = fromStore(dir, name, source)
	}
	if err != nil {
		return nil, err
	}
	e.Local = e.isLocal(getenv)
	e.getenv = getenv
	return e, nil
}

// contextName is the docker CLI's rule (cli/command's resolveContextName).
func contextName(o Options, getenv func(string) string, dir string) (name, source string, err error) {
	switch {
	case o.Context != "":
		return o.Context, "--context", nil
	case o.Host != "":
		return DefaultContext, "--host", nil
	case getenv("DOCKER_HOST") != "":
		return DefaultContext, "DOCKER_HOST", nil
	case getenv("DOCKER_CONTEXT") != "":
		return getenv("DOCKER_CONTEXT"), "DOCKER_CONTEXT", nil
	}
	cfg, err := config.Load(dir)
	if err != nil {
		return "", "", fmt.Errorf("read the docker CLI's configuration in %s: %w", dir, err)
	}
	if cfg.CurrentContext != "" {
		return cfg.CurrentContext, "docker context use", nil
	}
	return DefaultContext, "the default socket", nil
}

// defaultEndpoint is the default context: --host or DOCKER_HOST, with
// DOCKER_TLS_VERIFY and DOCKER_CERT_PATH, else the local socket.
func defaultEndpoint(o Options, getenv func(string) string, source string) (*Endpoint, error) {
	host := o.Host
	if host == "" {
		host = getenv("DOCKER_HOST")
	}
	if host == "" {
		host = defaultSocket()
	}
	e := &Endpoint{Context: DefaultContext, Source: source, Host: host}
	if !strings.HasPrefix(host, "ssh://") {
		if certs := getenv("DOCKER_CERT_PATH"); certs != "" || getenv("DOCKER_TLS_VERIFY") != "" {
			if certs == "" {
				certs = configDirOr(o.ConfigDir)
			}
			e.tls = &tlsMaterial{files: certs, verify: getenv("DOCKER_TLS_VERIFY") != ""}
		}
	}
	return e, e.finish()
}

func configDirOr(dir string) string {
	if dir != "" {
		return dir
	}
	return config.Dir()
}

// fromStore reads a named context from the docker CLI's context store.
func fromStore(dir, name, source string) (*Endpoint, error) {
	s := store.New(filepath.Join(dir, "contexts"), store.NewConfig(
		func() any { return &map[string]any{} },
		store.EndpointTypeGetter(dockerEndpoint, func() any { return &dcontext.EndpointMetaBase{} }),
	))
	meta, err := s.GetMetadata(name)
	if err != nil {
		return nil, fmt.Errorf("docker context %q (from %s): %w; list them with `docker context ls`", name, source, err)
	}
	raw, ok := meta.Endpoints[dockerEndpoint]
	if !ok {
		return nil, fmt.Errorf("docker context %q (from %s) has no docker endpoint", name, source)
	}
	ep, ok := raw.(dcontext.EndpointMetaBase)
	if !ok {
		return nil, fmt.Errorf("docker context %q (from %s): its docker endpoint is not a Docker endpoint", name, source)
	}
	host := ep.Host
	if host == "" {
		host = defaultSocket()
	}
	e := &Endpoint{Context: name, Source: source, Host: host}
	tlsData, err := dcontext.LoadTLSData(s, name, dockerEndpoint)
	if err != nil {
		return nil, fmt.Errorf("docker context %q: read its TLS material: %w", name, err)
	}
	if tlsData != nil || ep.SkipTLSVerify {
		e.tls = &tlsMaterial{data: tlsData, skipVerify: ep.SkipTLSVerify, verify: true}
	}
	return e, e.finish()
}

// finish sets Kind, the ssh target and the ssh dialer from Host.
func (e *Endpoint) finish() error {
	u, err := url.Parse(e.Host)
	if err != nil || u.Scheme == "" {
		return fmt.Errorf("engine address %q (%s): not a URL such as unix:///var/run/docker.sock, tcp://host:2376 or ssh://user@host", e.Host, e.Source)
	}
	switch u.Scheme {
	case "unix", "npipe", "fd":
		e.Kind, e.tls = Unix, nil
		if u.Scheme == "npipe" {
			e.Kind = NPipe
		}
	case "tcp", "http", "https":
		e.Kind = TCP
		e.TLS = e.tls != nil || u.Scheme == "https"
	case "ssh":
		e.Kind, e.tls = SSH, nil
		e.SSH = &SSHTarget{User: u.User.Username(), Host: u.Hostname(), Port: u.Port(), Path: u.Path}
		h, err := connhelper.GetConnectionHelper(e.Host)
		if err != nil {
			return fmt.Errorf("engine address %q (%s): %w", e.Host, e.Source, err)
		}
		e.mux = &muxCache{}
		e.dialer, e.dialTo = e.sharedDialer(), h.Host
	default:
		return fmt.Errorf("engine address %q (%s): unknown scheme %q (unix, tcp or ssh)", e.Host, e.Source, u.Scheme)
	}
	return nil
}

// sharedDialer dials the ssh engine with docker/cli's helper (`ssh ...
// docker system dial-stdio`), with SSHMux's flags so that every dial and
// the port forwards share one SSH connection; the flags are read at the
// first dial, not when the endpoint is resolved.
func (e *Endpoint) sharedDialer() func(ctx context.Context, network, addr string) (net.Conn, error) {
	var once sync.Once
	var h *connhelper.ConnectionHelper
	var herr error
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		once.Do(func() {
			h, herr = connhelper.GetConnectionHelperWithSSHOpts(e.Host, e.SSHMux().Flags)
		})
		if herr != nil {
			return nil, herr
		}
		return h.Dialer(ctx, network, addr)
	}
}

// tlsMaterial is a context's TLS data or DOCKER_CERT_PATH's files.
type tlsMaterial struct {
	data       *dcontext.TLSData
	files      string // DOCKER_CERT_PATH
	verify     bool
	skipVerify bool
}

// config builds the client's TLS configuration as the docker CLI does:
// go-connections' client defaults, the CA, the client key pair, and
// verification off only when asked (DOCKER_TLS_VERIFY unset, or the
// context's SkipTLSVerify).
func (t *tlsMaterial) config() (*tls.Config, error) {
	if t.files != "" {
		cfg, err := tlsconfig.Client(tlsconfig.Options{
			CAFile:             filepath.Join(t.files, "ca.pem"),
			CertFile:           filepath.Join(t.files, "cert.pem"),
			KeyFile:            filepath.Join(t.files, "key.pem"),
			InsecureSkipVerify: !t.verify,
		})
		if err != nil {
			return nil, fmt.Errorf("TLS material in DOCKER_CERT_PATH %s: %w", t.files, err)
		}
		return cfg, nil
	}
	cfg := tlsconfig.ClientDefault()
	cfg.InsecureSkipVerify = t.skipVerify
	if t.data == nil {
		return cfg, nil
	}
	if len(t.data.CA) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(t.data.CA) {
			return nil, errors.New("the context's ca.pem holds no certificate")
		}
		cfg.RootCAs = pool
	}
	if len(t.data.Cert) > 0 && len(t.data.Key) > 0 {
		pair, err := tls.X509KeyPair(t.data.Cert, t.data.Key)
		if err != nil {
			return nil, fmt.Errorf("the context's cert.pem and key.pem: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}
