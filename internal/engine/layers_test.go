package engine

import "testing"

func TestInstruction(t *testing.T) {
	for in, want := range map[string]string{
		"|1 DEBIAN_FRONTEND=noninteractive /bin/sh -c apt-get update": "RUN apt-get update",
		"/bin/sh -c python3 -m venv /opt/devenv/venv":                 "RUN python3 -m venv /opt/devenv/venv",
		"/bin/sh -c #(nop) COPY file:96a1 in /opt/spark/jars/ ":       "COPY file:96a1 in /opt/spark/jars/",
		"/bin/sh -c #(nop)  ENV JAVA_HOME=/usr/lib/jvm/devenv-java":   "ENV JAVA_HOME=/usr/lib/jvm/devenv-java",
		"":                       "",
		"buildkit.dockerfile.v0": "buildkit.dockerfile.v0",
	} {
		if got := instruction(in); got != want {
			t.Errorf("instruction(%q) = %q, want %q", in, got, want)
		}
	}
}
