//go:build linux

package k8s

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// secrets are the files the API server and its clients are started with,
// all made for one rig and kept in its directory.
type secrets struct {
	CA, ServingCert, ServingKey string // TLS of the API server on 127.0.0.1
	SAPub, SAKey                string // service-account token signing
	TokenFile, Token            string // the admin's bearer token (system:masters)
}

// writeSecrets makes a CA, a serving certificate for 127.0.0.1 signed by
// it, a service-account key pair and an admin token, in dir.
func writeSecrets(dir string) (secrets, error) {
	s := secrets{CA: filepath.Join(dir, "ca.crt"), ServingCert: filepath.Join(dir, "apiserver.crt"),
		ServingKey: filepath.Join(dir, "apiserver.key"), SAPub: filepath.Join(dir, "sa.pub"),
		SAKey: filepath.Join(dir, "sa.key"), TokenFile: filepath.Join(dir, "tokens.csv")}
	caKey, caCert, caDER, err := newCA()
	if err != nil {
		return s, err
	}
	servingKey, servingDER, err := newServingCert(caKey, caCert)
	if err != nil {
		return s, err
	}
	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return s, err
	}
	saPub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return s, err
	}
	tok := make([]byte, 24)
	if _, err := rand.Read(tok); err != nil {
		return s, err
	}
	s.Token = hex.EncodeToString(tok)
	for _, f := range []struct {
		path string
		data []byte
	}{
		{s.CA, pemBlock("CERTIFICATE", caDER)},
		{s.ServingCert, pemBlock("CERTIFICATE", servingDER)},
		{s.ServingKey, keyPEM(servingKey)},
		{s.SAPub, pemBlock("PUBLIC KEY", saPub)},
		{s.SAKey, keyPEM(saKey)},
		{s.TokenFile, []byte(s.Token + ",rig-admin,rig-admin-uid,\"system:masters\"\n")},
	} {
		if err := os.WriteFile(f.path, f.data, 0o600); err != nil {
			return s, fmt.Errorf("cannot write %s: %w", f.path, err)
		}
	}
	return s, nil
}

func newCA() (*ecdsa.PrivateKey, *x509.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "devenv-test-k8s-rig-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return key, cert, der, err
}

func newServingCert(caKey *ecdsa.PrivateKey, ca *x509.Certificate) (*ecdsa.PrivateKey, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "kube-apiserver"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	return key, der, err
}

func pemBlock(kind string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
}

func keyPEM(key *ecdsa.PrivateKey) []byte {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		panic(err) // a P-256 key always marshals
	}
	return pemBlock("EC PRIVATE KEY", der)
}
