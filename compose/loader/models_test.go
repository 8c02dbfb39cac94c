package loader

import (
	"strings"
	"testing"
)

// TestModelsRefusedByName: top-level models: (and a service's models:)
// are refused by name with what to do instead; they were dropped without a
// word, and the export was then a file Compose refuses.
func TestModelsRefusedByName(t *testing.T) {
	dir, file := writeCompose(t, "services:\n  agent:\n    image: busybox:1\n    models: [llm]\nmodels:\n  llm:\n    model: ai/smollm2\n")
	_, err := Load(t.Context(), []string{file}, dir, "demo", nil)
	if err == nil {
		t.Fatal("loaded; want models refused")
	}
	for _, want := range []string{"compose.yaml: models: llm: devenv does not run Compose models", `service "agent": uses models:`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\nwant it to say %q", err, want)
		}
	}
}
