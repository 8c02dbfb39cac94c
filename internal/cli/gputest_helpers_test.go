package cli

import "encoding/json"

// jsonDecode decodes exactly one JSON value; trailing data is an error.
func jsonDecode(s string, v any) error { return json.Unmarshal([]byte(s), v) }
