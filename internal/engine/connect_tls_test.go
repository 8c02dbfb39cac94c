package engine

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/devenv-dev/devenv/internal/endpoint"
	dcontext "github.com/docker/cli/cli/context"
	"github.com/docker/cli/cli/context/store"
)

// pki is a CA and a certificate it signed, as PEM.
func issue(t *testing.T, ca *x509.Certificate, caKey *ecdsa.PrivateKey, tmpl *x509.Certificate) (certPEM, keyPEM []byte, cert *x509.Certificate, key *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	parent, signer := ca, caKey
	if ca == nil {
		parent, signer = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, signer)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ = x509.ParseCertificate(der)
	kb, _ := x509.MarshalECPrivateKey(key)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), cert, key
}

// TestConnectOverTLSWithCertPath: DOCKER_HOST=tcp://, DOCKER_TLS_VERIFY and
// DOCKER_CERT_PATH reach an engine that verifies the client's certificate,
// as the docker CLI's files would, and so does a context holding the same
// TLS material in the context store; without the client certificate
// devenv does not connect.
func TestConnectOverTLSWithCertPath(t *testing.T) {
	now := time.Now()
	caPEM, _, ca, caKey := issue(t, nil, nil, &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign})
	srvPEM, srvKey, _, _ := issue(t, ca, caKey, &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "engine"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	cliPEM, cliKey, _, _ := issue(t, ca, caKey, &x509.Certificate{SerialNumber: big.NewInt(3), Subject: pkix.Name{CommonName: "client"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})

	pair, err := tls.X509KeyPair(srvPEM, srvKey)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Api-Version", "1.41")
		_, _ = w.Write([]byte("OK"))
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	defer srv.Close()

	certs := t.TempDir()
	for name, data := range map[string][]byte{"ca.pem": caPEM, "cert.pem": cliPEM, "key.pem": cliKey} {
		if err := os.WriteFile(filepath.Join(certs, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	host := "tcp://" + srv.Listener.Addr().String()
	t.Setenv("DOCKER_HOST", host)
	t.Setenv("DOCKER_TLS_VERIFY", "1")
	t.Setenv("DOCKER_CERT_PATH", certs)
	e, err := ConnectTo(t.Context(), endpoint.Options{ConfigDir: t.TempDir()})
	if err != nil {
		t.Fatalf("connect over TLS: %v", err)
	}
	_ = e.Close()
	if ep := EndpointOf(e); !ep.TLS || ep.Host != host || !ep.Local {
		t.Errorf("endpoint %+v", ep)
	}

	cfg := t.TempDir()
	st := store.New(filepath.Join(cfg, "contexts"), store.NewConfig(
		func() any { return &map[string]any{} },
		store.EndpointTypeGetter("docker", func() any { return &dcontext.EndpointMetaBase{} }),
	))
	if err := st.CreateOrUpdate(store.Metadata{Name: "tls", Endpoints: map[string]any{"docker": dcontext.EndpointMetaBase{Host: host}}}); err != nil {
		t.Fatal(err)
	}
	if err := st.ResetEndpointTLSMaterial("tls", "docker", &store.EndpointTLSData{Files: map[string][]byte{"ca.pem": caPEM, "cert.pem": cliPEM, "key.pem": cliKey}}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DOCKER_HOST", "")
	t.Setenv("DOCKER_CONTEXT", "tls")
	e, err = ConnectTo(t.Context(), endpoint.Options{ConfigDir: cfg})
	if err != nil {
		t.Fatalf("connect through a context with TLS material: %v", err)
	}
	_ = e.Close()
	if ep := EndpointOf(e); ep.Context != "tls" || !ep.TLS {
		t.Errorf("endpoint %+v", ep)
	}
	t.Setenv("DOCKER_CONTEXT", "")
	t.Setenv("DOCKER_HOST", host)

	if err := os.Remove(filepath.Join(certs, "cert.pem")); err != nil {
		t.Fatal(err)
	}
	if _, err := ConnectTo(t.Context(), endpoint.Options{ConfigDir: t.TempDir()}); err == nil {
		t.Fatal("connected without the client certificate the engine requires")
	}
}
