package dockerplugin

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTranslate(t *testing.T) {
	tests := []struct {
		name string
		argv string
		args string
		env  string
		err  string
	}{
		{"plain", "docker-devenv devenv up -d", "devenv up -d", "", ""},
		{"context long", "docker-devenv --context gpu devenv up", "devenv --context gpu up", "", ""},
		{"context equals", "docker-devenv --context=gpu devenv ps", "devenv --context gpu ps", "", ""},
		{"context short", "docker-devenv -c gpu devenv ps", "devenv --context gpu ps", "", ""},
		{"host short glued", "docker-devenv -Hssh://me@box devenv ps", "devenv --host ssh://me@box ps", "", ""},
		{"host short", "docker-devenv -H tcp://127.0.0.1:2375 devenv version --json", "devenv --host tcp://127.0.0.1:2375 version --json", "", ""},
		{"config and debug", "docker-devenv --config /tmp/dc -D -l warn devenv up", "devenv --debug up", "DOCKER_CONFIG=/tmp/dc", ""},
		{"tls in one directory", "docker-devenv --tlsverify --tlscacert /c/ca.pem --tlscert /c/cert.pem --tlskey=/c/key.pem -H tcp://h:2376 devenv ps",
			"devenv --host tcp://h:2376 ps", "DOCKER_TLS_VERIFY=1 DOCKER_CERT_PATH=/c", ""},
		{"devenv's own flags stay after", "docker-devenv devenv --context x up devenv", "devenv --context x up devenv", "", ""},
		{"tls files apart", "docker-devenv --tlscacert /a/ca.pem --tlscert /b/cert.pem devenv ps", "", "", "DOCKER_CERT_PATH"},
		{"tls file renamed", "docker-devenv --tlscacert /a/root.pem devenv ps", "", "", "ca.pem"},
		{"not through docker", "docker-devenv up", "", "", "run it as"},
		{"nothing", "docker-devenv", "", "", "docker devenv COMMAND"},
		{"value missing", "docker-devenv --context", "", "", "needs a value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Translate(strings.Fields(tt.argv))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Translate(%q) error = %v, want one saying %q", tt.argv, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(c.Args, " "); got != tt.args {
				t.Errorf("args = %q, want %q", got, tt.args)
			}
			if got := strings.Join(c.Env, " "); got != tt.env {
				t.Errorf("env = %q, want %q", got, tt.env)
			}
		})
	}
}

func TestMetadata(t *testing.T) {
	c, err := Translate([]string{"/usr/libexec/docker/cli-plugins/docker-devenv", MetadataCommand})
	if err != nil || !c.Metadata {
		t.Fatalf("Translate(metadata) = %+v, %v", c, err)
	}
	var m map[string]any
	if err := json.Unmarshal(Metadata("v1.2.3"), &m); err != nil {
		t.Fatal(err)
	}
	if m["SchemaVersion"] != "0.1.0" || m["Vendor"] == "" || m["Version"] != "v1.2.3" || m["ShortDescription"] == "" {
		t.Errorf("metadata = %v", m)
	}
}

func TestIsPlugin(t *testing.T) {
	for argv0, want := range map[string]bool{
		"/usr/libexec/docker/cli-plugins/docker-devenv": true, "docker-devenv.exe": true,
		"/usr/bin/devenv": false, "docker-compose": false,
	} {
		if got := IsPlugin(argv0); got != want {
			t.Errorf("IsPlugin(%q) = %v, want %v", argv0, got, want)
		}
	}
}
