package spec

import _ "embed"

//go:embed devenv.schema.json
var schemaJSON []byte

// Schema returns the JSON Schema of devenv.yaml for editors (for example
// through a yaml-language-server modeline). The decoder is the authority;
// a test keeps the schema in step with it.
func Schema() []byte {
	out := make([]byte, len(schemaJSON))
	copy(out, schemaJSON)
	return out
}
