package spec

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

func compileSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatalf("devenv.schema.json is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("devenv.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("devenv.schema.json")
	if err != nil {
		t.Fatalf("devenv.schema.json does not compile: %v", err)
	}
	return s
}

// yamlAsJSON turns YAML into the values the validator expects, the way an
// editor's YAML language server does.
func yamlAsJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSchemaAcceptsValidFiles(t *testing.T) {
	s := compileSchema(t)
	docs := map[string][]byte{}
	for _, file := range yamlFiles(t, "valid") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		docs[file] = data
	}
	for _, profile := range BuiltinProfiles {
		data, err := Starter("demo", profile)
		if err != nil {
			t.Fatal(err)
		}
		docs["starter "+profile] = data
	}
	for name, data := range docs {
		if err := s.Validate(yamlAsJSON(t, data)); err != nil {
			t.Errorf("%s: the decoder accepts it but the schema does not:\n%v", name, err)
		}
	}
}

// Files that are wrong by type or by key name must fail the schema too;
// other invalid files (missing files, cycles, ...) are beyond a schema.
func TestSchemaRejectsInvalidByType(t *testing.T) {
	s := compileSchema(t)
	n := 0
	for _, file := range yamlFiles(t, "invalid") {
		base := filepath.Base(file)
		if !strings.HasPrefix(base, "type-") && !strings.HasPrefix(base, "unknown-key") {
			continue
		}
		n++
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(yamlAsJSON(t, data)); err == nil {
			t.Errorf("%s: the decoder rejects it but the schema accepts it", base)
		}
	}
	if n < 3 {
		t.Fatalf("found only %d type-*.yaml / unknown-key*.yaml files", n)
	}
}

// TestSchemaKeysMatchDecoder keeps the schema's keys and the decoder's in step.
func TestSchemaKeysMatchDecoder(t *testing.T) {
	var doc struct {
		Properties map[string]any `json:"properties"`
		Defs       map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(Schema(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what         string
		schema, code []string
	}{
		{"top level", slices.Sorted(maps.Keys(doc.Properties)), slices.Sorted(maps.Keys(topKeys))},
		{"service", slices.Sorted(maps.Keys(doc.Defs["service"].Properties)), slices.Sorted(maps.Keys(serviceKeys))},
		{"custom profile", slices.Sorted(maps.Keys(doc.Defs["custom"].Properties)), slices.Sorted(maps.Keys(customKeys))},
	} {
		if !slices.Equal(c.schema, c.code) {
			t.Errorf("%s keys differ:\nschema:  %v\ndecoder: %v", c.what, c.schema, c.code)
		}
	}
}
