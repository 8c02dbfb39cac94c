package sources

import "testing"

func TestRewrite(t *testing.T) {
	m := Mirrors{
		Registries: map[string]string{"nvcr.io": "127.0.0.1:5055", "docker.io": "mirror.corp/hub"},
		Maven:      "http://127.0.0.1:8081/maven2/",
		Apache:     "http://127.0.0.1:8081/apache",
	}
	tests := []struct{ in, want string }{
		{"nvcr.io/nvidia/cuda:12.9.1-runtime-ubuntu22.04", "127.0.0.1:5055/nvidia/cuda:12.9.1-runtime-ubuntu22.04"},
		{"nvcr.io/nvidia/tritonserver@sha256:abc", "127.0.0.1:5055/nvidia/tritonserver@sha256:abc"},
		{"postgres:16", "mirror.corp/hub/library/postgres:16"},
		{"minio/minio:latest", "mirror.corp/hub/minio/minio:latest"},
		{"ghcr.io/x/y:1", "ghcr.io/x/y:1"},
		{"localhost/x:1", "localhost/x:1"},
	}
	for _, tt := range tests {
		if got := m.Image(tt.in); got != tt.want {
			t.Errorf("Image(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	urls := []struct{ in, want string }{
		{MavenCentral + "/com/nvidia/x.jar", "http://127.0.0.1:8081/maven2/com/nvidia/x.jar"},
		{ApacheArchive + "/spark/spark-3.5.1/s.tgz", "http://127.0.0.1:8081/apache/spark/spark-3.5.1/s.tgz"},
		{"https://example.com/a", "https://example.com/a"},
	}
	for _, tt := range urls {
		if got := m.URL(tt.in); got != tt.want {
			t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFromEnvOverrides(t *testing.T) {
	env := map[string]string{
		"DEVENV_MIRROR_MAVEN":      "http://m",
		"DEVENV_MIRROR_REGISTRIES": "nvcr.io=127.0.0.1:9, bad, docker.io=hub.local",
	}
	base := Mirrors{Registries: map[string]string{"nvcr.io": "old"}, Apache: "http://a"}
	got := FromEnv(base, func(k string) string { return env[k] })
	if got.Maven != "http://m" || got.Apache != "http://a" {
		t.Fatalf("maven/apache = %q/%q", got.Maven, got.Apache)
	}
	if got.Registries["nvcr.io"] != "127.0.0.1:9" || got.Registries["docker.io"] != "hub.local" || len(got.Registries) != 2 {
		t.Fatalf("registries = %v", got.Registries)
	}
	if base.Registries["nvcr.io"] != "old" {
		t.Fatal("FromEnv changed its input")
	}
}
