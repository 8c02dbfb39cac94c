package compose

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/go-viper/mapstructure/v2"
)

// Config is compose-go's own value of one compose service, as `docker
// compose config` has it (interpolated, paths resolved, env_file merged),
// with the top-level definitions it refers to. The project renderer starts
// from it, so that every key comes out exactly as Compose has it, and
// applies only devenv's documented overrides.
//
// It reads back the JSON it writes (compose-go's types write JSON but do
// not all read it back), the way compose-go's loader reads YAML, through
// each type's own DecodeMapstructure. What compose-go keeps out of its JSON
// stays out here too: the extensions (x-*) of nested values, and secrets'
// content (Compose reads a secret's file or variable itself when it runs).
type Config struct {
	Service types.ServiceConfig
	// Networks are the top-level definitions of the networks the service
	// joins, by key, named as Compose names them (<project>_<key> unless
	// the file names it); Volumes those of the named volumes it mounts;
	// Configs and Secrets those it refers to.
	Networks types.Networks
	Volumes  types.Volumes
	Configs  types.Configs
	Secrets  types.Secrets
}

// configJSON is Config on the wire: Service as compose-go writes it, plus
// what its JSON leaves out and the renderer needs.
type configJSON struct {
	Name       string           `json:"name"`
	Service    json.RawMessage  `json:"service"`
	Extensions types.Extensions `json:"extensions,omitempty"`
	// SSH is build.ssh, whose JSON compose-go writes invalid when a key has a path.
	SSH      []types.SSHKey `json:"ssh,omitempty"`
	Networks types.Networks `json:"networks,omitempty"`
	Volumes  types.Volumes  `json:"volumes,omitempty"`
	Configs  types.Configs  `json:"configs,omitempty"`
	Secrets  types.Secrets  `json:"secrets,omitempty"`
}

type sshKeyJSON struct {
	ID   string `json:"id"`
	Path string `json:"path,omitempty"`
}

// MarshalJSON writes c as compose-go writes its values.
func (c Config) MarshalJSON() ([]byte, error) {
	s := c.Service
	var ssh []sshKeyJSON
	if s.Build != nil && len(s.Build.SSH) > 0 {
		b := *s.Build
		for _, k := range b.SSH {
			ssh = append(ssh, sshKeyJSON{ID: k.ID, Path: k.Path})
		}
		b.SSH = nil
		s.Build = &b
	}
	svc, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("compose service %s: %w", s.Name, err)
	}
	wire := map[string]any{"name": s.Name, "service": json.RawMessage(svc)}
	for k, v := range map[string]any{"extensions": s.Extensions, "ssh": ssh, "networks": c.Networks, "volumes": c.Volumes,
		"configs": c.Configs, "secrets": c.Secrets} {
		if !reflect.ValueOf(v).IsZero() && reflect.ValueOf(v).Len() > 0 {
			wire[k] = v
		}
	}
	return json.Marshal(wire)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (c *Config) UnmarshalJSON(b []byte) error {
	var wire struct {
		Name       string          `json:"name"`
		Service    json.RawMessage `json:"service"`
		Extensions json.RawMessage `json:"extensions"`
		SSH        []sshKeyJSON    `json:"ssh"`
		Networks   json.RawMessage `json:"networks"`
		Volumes    json.RawMessage `json:"volumes"`
		Configs    json.RawMessage `json:"configs"`
		Secrets    json.RawMessage `json:"secrets"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		return err
	}
	out := Config{}
	for _, f := range []struct {
		raw    json.RawMessage
		target any
	}{
		{wire.Service, &out.Service}, {wire.Extensions, &out.Service.Extensions}, {wire.Networks, &out.Networks},
		{wire.Volumes, &out.Volumes}, {wire.Configs, &out.Configs}, {wire.Secrets, &out.Secrets},
	} {
		if err := decodeComposeJSON(f.raw, f.target); err != nil {
			return fmt.Errorf("compose service %s: %w", wire.Name, err)
		}
	}
	out.Service.Name = wire.Name
	if len(wire.SSH) > 0 && out.Service.Build != nil {
		for _, k := range wire.SSH {
			out.Service.Build.SSH = append(out.Service.Build.SSH, types.SSHKey{ID: k.ID, Path: k.Path})
		}
	}
	*c = out
	return nil
}

// decodeComposeJSON reads compose-go's JSON of a value into target as
// compose-go's loader reads YAML: field names from the json tags,
// embedded specs squashed, and each type's DecodeMapstructure for the
// shapes its JSON takes (modes as "0444", ulimits as numbers, extra_hosts
// as a list).
func decodeComposeJSON(raw json.RawMessage, target any) error {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	d, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		DecodeHook: useDecoder,
		Result:     target,
		TagName:    "json",
		Squash:     true,
	})
	if err != nil {
		return err
	}
	return d.Decode(numbers(v))
}

// numbers turns JSON's numbers into the int or float64 that YAML gives
// compose-go's decoders.
func numbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return int(i)
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		for k, e := range t {
			t[k] = numbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = numbers(e)
		}
	}
	return v
}

// mapDecoder is what compose-go's types implement to read their YAML shapes.
type mapDecoder interface {
	DecodeMapstructure(any) error
}

// useDecoder hands a value to its type's DecodeMapstructure, when it has one.
func useDecoder(from, to reflect.Value) (any, error) {
	u, ok := to.Interface().(mapDecoder)
	if !ok && to.CanAddr() {
		u, ok = to.Addr().Interface().(mapDecoder)
	}
	if !ok {
		return optOutDefaults(from, to), nil
	}
	if to.Kind() == reflect.Pointer && to.IsNil() {
		to.Set(reflect.New(to.Type().Elem()))
		u = to.Interface().(mapDecoder)
	}
	if err := u.DecodeMapstructure(from.Interface()); err != nil {
		return nil, err
	}
	return to.Interface(), nil
}

var optOut = reflect.TypeOf(types.OptOut(false))

// optOutDefaults gives the OptOut fields (true unless written false) that
// compose-go's JSON leaves out, being true, their value back.
func optOutDefaults(from, to reflect.Value) any {
	m, ok := from.Interface().(map[string]any)
	t := to.Type()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if !ok || t.Kind() != reflect.Struct {
		return from.Interface()
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type != optOut {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if _, set := m[name]; !set && name != "" && name != "-" {
			m[name] = true
		}
	}
	return m
}
