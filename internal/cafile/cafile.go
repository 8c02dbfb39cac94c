// Package cafile is devenv's one rule for CA files a custom profile copies
// into an image: certificates only, never a private key.
package cafile

import (
	"bytes"
	"encoding/pem"
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/internal/redact"
)

// Check refuses a CA file that holds anything but certificates: a
// private key (of any PEM type: "PRIVATE KEY", "RSA PRIVATE KEY", "EC
// PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "OPENSSH PRIVATE KEY") copied
// into an image would be readable by everyone who pulls it, and is never
// needed to trust a CA. Blocks that do not parse are looked at by their
// header line too, so a broken key block is refused as well.
func Check(path string, data []byte) error {
	rest := data
	for {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" && b.Type != "TRUSTED CERTIFICATE" && b.Type != "X509 CRL" {
			return keyError(path, b.Type)
		}
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		l := strings.ToUpper(strings.TrimSpace(string(line)))
		if strings.HasPrefix(l, "-----BEGIN ") && strings.Contains(l, "PRIVATE KEY") {
			return keyError(path, strings.Trim(strings.TrimPrefix(l, "-----BEGIN "), "-"))
		}
	}
	return nil
}

func keyError(path, typ string) error {
	if strings.Contains(typ, "PRIVATE KEY") {
		return fmt.Errorf("%s holds a private key (%s) next to its certificates: devenv copies CA files into the image, where anyone who pulls it could read the key; keep only the CA certificate in the file (`openssl x509 -in %s -out ca.pem`)",
			path, typ, path)
	}
	return fmt.Errorf("%s holds a PEM block of type %s: a CA file for the image holds certificates only; keep only the CA certificate in the file", path, redact.String(typ))
}
