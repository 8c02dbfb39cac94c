package cafile

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"
)

// TestCheck: a CA file of real certificates passes; one that also holds a
// private key in any PEM form (generated here by crypto/x509, as openssl
// writes them) is refused, naming the key type and never showing the key.
func TestCheck(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "corp CA"}, IsCA: true,
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour), BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &ec.PublicKey, ec)
	if err != nil {
		t.Fatal(err)
	}
	cert := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(ec)
	sec1, _ := x509.MarshalECPrivateKey(ec)
	rk, err := rsa.GenerateKey(rand.Reader, 1024) //nolint:gosec // a throwaway test key
	if err != nil {
		t.Fatal(err)
	}
	pkcs1 := x509.MarshalPKCS1PrivateKey(rk)
	block := func(typ string, b []byte) string { return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b})) }
	tests := []struct {
		name, data, says string
	}{
		{"one certificate", cert, ""},
		{"a bundle of two", cert + cert, ""},
		{"PKCS#8 key after the certificate", cert + block("PRIVATE KEY", pkcs8), "(PRIVATE KEY)"},
		{"EC key before it", block("EC PRIVATE KEY", sec1) + cert, "(EC PRIVATE KEY)"},
		{"RSA key", cert + block("RSA PRIVATE KEY", pkcs1), "(RSA PRIVATE KEY)"},
		{"encrypted key", cert + block("ENCRYPTED PRIVATE KEY", pkcs8), "(ENCRYPTED PRIVATE KEY)"},
		{"a key block that does not decode", cert + "-----BEGIN PRIVATE KEY-----\n!!not base64!!\n", "(PRIVATE KEY)"},
		{"a public key", cert + block("PUBLIC KEY", []byte{1, 2, 3}), "PEM block of type PUBLIC KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check("corp.pem", []byte(tt.data))
			if tt.says == "" {
				if err != nil {
					t.Fatalf("Check = %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), "corp.pem") {
				t.Fatalf("Check = %v, want an error naming corp.pem and %s", err, tt.says)
			}
			for _, line := range strings.Split(tt.data, "\n") {
				if len(line) > 16 && !strings.HasPrefix(line, "-----") && strings.Contains(err.Error(), line[:16]) {
					t.Errorf("the error shows PEM content: %v", err)
				}
			}
		})
	}
}
