//go:build linux

// Package k8s is the e2e tests' Kubernetes API server: etcd and
// kube-apiserver of one pinned release (internal/tools/k8s), built into the
// test cache and started on 127.0.0.1 at free ports for one test, with a
// bearer token and a CA made for it, and stopped (with every process they
// started) at the test's cleanup. It has no nodes: objects are created,
// validated and stored, nothing runs.
package k8s

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readyWithin bounds the wait for etcd and the API server to say they are
// ready: a state waited for, not a pace expected (about 10 s here).
const readyWithin = 3 * time.Minute

// Cluster is a running API server with its etcd.
type Cluster struct {
	URL        string // https://127.0.0.1:PORT
	Kubeconfig string // a kubeconfig for the admin (system:masters)
	Bins       Binaries
	dir        string
	token      string
	ca         *x509.CertPool
	procs      []*proc
}

// Start builds the programs (Build) and starts etcd and kube-apiserver for
// this test; both are killed, with their process groups, at its cleanup,
// and when Start fails.
func Start(t testing.TB) *Cluster {
	t.Helper()
	c := &Cluster{Bins: Build(t), dir: t.TempDir()}
	t.Cleanup(c.stop)
	if err := c.start(t); err != nil {
		c.logTails(t)
		t.Fatalf("k8s rig: %v", err)
	}
	return c
}

func (c *Cluster) start(t testing.TB) error {
	began := time.Now()
	s, err := writeSecrets(c.dir)
	if err != nil {
		return err
	}
	c.token = s.Token
	caPEM, err := os.ReadFile(s.CA)
	if err != nil {
		return err
	}
	c.ca = x509.NewCertPool()
	c.ca.AppendCertsFromPEM(caPEM)
	etcdURL, err := c.startEtcd()
	if err != nil {
		return err
	}
	if err := c.startAPIServer(etcdURL, s); err != nil {
		return err
	}
	if err := c.checkVersion(); err != nil {
		return err
	}
	c.Kubeconfig = filepath.Join(c.dir, "kubeconfig")
	if err := os.WriteFile(c.Kubeconfig, []byte(kubeconfig(c.URL, s.CA, s.Token)), 0o600); err != nil {
		return err
	}
	t.Logf("k8s rig: Kubernetes %s API server at %s (etcd %s at %s), ready after %s",
		c.Bins.Kubernetes, c.URL, c.Bins.EtcdVersion, etcdURL, time.Since(began).Round(100*time.Millisecond))
	return nil
}

func (c *Cluster) startEtcd() (string, error) {
	ports, err := freePorts(2)
	if err != nil {
		return "", err
	}
	url := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	p, err := c.run("etcd", c.Bins.Etcd, "--name", "rig", "--data-dir", filepath.Join(c.dir, "etcd"),
		"--listen-client-urls", url, "--advertise-client-urls", url,
		"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
		"--initial-cluster", "rig="+peerURL, "--log-level", "warn")
	if err != nil {
		return "", err
	}
	return url, c.waitReady(p, url+"/health", `200 {"health":"true"`, http.DefaultClient)
}

func (c *Cluster) startAPIServer(etcdURL string, s secrets) error {
	ports, err := freePorts(1)
	if err != nil {
		return err
	}
	port := strconv.Itoa(ports[0])
	c.URL = "https://127.0.0.1:" + port
	p, err := c.run("kube-apiserver", c.Bins.K8s, "kube-apiserver",
		"--etcd-servers", etcdURL, "--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1",
		"--secure-port", port, "--cert-dir", filepath.Join(c.dir, "certs"),
		"--tls-cert-file", s.ServingCert, "--tls-private-key-file", s.ServingKey,
		"--token-auth-file", s.TokenFile, "--anonymous-auth=false", "--authorization-mode", "RBAC",
		"--service-account-issuer", "https://kubernetes.default.svc", "--service-account-key-file", s.SAPub,
		"--service-account-signing-key-file", s.SAKey, "--service-cluster-ip-range", "10.96.0.0/24",
		"--endpoint-reconciler-type", "none", "--profiling=false")
	if err != nil {
		return err
	}
	return c.waitReady(p, c.URL+"/readyz", "200 ok", c.httpClient())
}

// checkVersion wants the API server to report the release its module pins
// (the build stamps it: unstamped, it says v0.0.0).
func (c *Cluster) checkVersion() error {
	body, err := get(c.httpClient(), c.URL+"/version")
	if err != nil {
		return err
	}
	var v struct {
		GitVersion string `json:"gitVersion"`
	}
	if _, js, _ := strings.Cut(body, " "); json.Unmarshal([]byte(js), &v) != nil || v.GitVersion != c.Bins.Kubernetes {
		return fmt.Errorf("the API server reports version %q at /version (%s), want %s, the release internal/tools/k8s/go.mod pins", v.GitVersion, body, c.Bins.Kubernetes)
	}
	return nil
}

// httpClient trusts the rig's CA and sends its token.
func (c *Cluster) httpClient() *http.Client {
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: c.ca, MinVersion: tls.VersionTLS12}}
	return &http.Client{Transport: bearer{token: c.token, next: tr}, Timeout: 10 * time.Second}
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// waitReady polls url until its status and body (get) start with want,
// the process ends (its log says why) or readyWithin passes.
func (c *Cluster) waitReady(p *proc, url, want string, client *http.Client) error {
	last, err := poll(context.Background(), p.done, func() (bool, string) {
		body, err := get(client, url)
		if err != nil {
			return false, err.Error()
		}
		return strings.HasPrefix(body, want), strings.TrimSpace(body)
	})
	switch {
	case errors.Is(err, errStopped):
		return fmt.Errorf("%s exited (%w) before %s answered %q; last answer: %s", p.name, p.err, url, want, last)
	case err != nil:
		return fmt.Errorf("%s did not answer %q at %s: %w; last answer: %s", p.name, want, url, err, last)
	}
	return nil
}

var (
	errStopped = errors.New("stopped")
	errTimeout = fmt.Errorf("not within %s", readyWithin)
)

// poll calls check every 100 ms until it reports done; it gives up with
// errStopped when stop is closed, errTimeout after readyWithin, or ctx's
// error. It returns check's last answer, for the caller's message.
func poll(ctx context.Context, stop <-chan struct{}, check func() (done bool, answer string)) (string, error) {
	deadline := time.NewTimer(readyWithin)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		done, last := check()
		if done {
			return last, nil
		}
		select {
		case <-stop:
			return last, errStopped
		case <-ctx.Done():
			return last, ctx.Err()
		case <-deadline.C:
			return last, errTimeout
		case <-tick.C:
		}
	}
}

// get returns "STATUS BODY".
func get(client *http.Client, url string) (string, error) {
	resp, err := client.Get(url)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(resp.Body)
	return fmt.Sprintf("%d %s", resp.StatusCode, buf.String()), err
}

// Kubectl runs the rig's kubectl against the cluster, with a home, cache
// and kubeconfig of the rig's own (nothing of the user's ~/.kube is read
// or written), and returns its stdout and stderr.
func (c *Cluster) Kubectl(ctx context.Context, args ...string) (stdout, stderr string, err error) {
	cmd := exec.CommandContext(ctx, c.Bins.K8s, append([]string{"kubectl", "--kubeconfig", c.Kubeconfig,
		"--cache-dir", filepath.Join(c.dir, "kubectl-cache")}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+c.dir, "KUBECONFIG="+c.Kubeconfig)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// freePorts returns n ports that were free on 127.0.0.1 a moment ago.
func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("no free port on 127.0.0.1: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func kubeconfig(server, ca, token string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: rig
  cluster:
    server: %s
    certificate-authority: %s
users:
- name: rig-admin
  user:
    token: %s
contexts:
- name: rig
  context:
    cluster: rig
    user: rig-admin
    namespace: default
current-context: rig
`, server, ca, token)
}

// proc is a process the rig started, in a process group of its own.
type proc struct {
	name, log string
	cmd       *exec.Cmd
	done      chan struct{}
	err       error
}

// run starts bin with args, its output going to a log in the rig's
// directory.
func (c *Cluster) run(name, bin string, args ...string) (*proc, error) {
	p := &proc{name: name, log: filepath.Join(c.dir, name+".log"), done: make(chan struct{})}
	f, err := os.Create(p.log)
	if err != nil {
		return nil, err
	}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stdout, p.cmd.Stderr = f, f
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("cannot start %s: %w", name, err)
	}
	c.procs = append(c.procs, p)
	go func() {
		p.err = p.cmd.Wait()
		_ = f.Close()
		close(p.done)
	}()
	return p, nil
}

// stop kills every process group the rig started, newest first, and waits
// for each to end.
func (c *Cluster) stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
	c.procs = nil
}

// logTails logs the end of each process's log, for a failed start.
func (c *Cluster) logTails(t testing.TB) {
	t.Helper()
	for _, p := range c.procs {
		data, _ := os.ReadFile(p.log)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) > 30 {
			lines = lines[len(lines)-30:]
		}
		t.Logf("k8s rig: the end of %s's log (%s):\n%s", p.name, p.log, strings.Join(lines, "\n"))
	}
}

// LogTails is logTails for a test that failed after Start.
func (c *Cluster) LogTails(t testing.TB) { c.logTails(t) }
