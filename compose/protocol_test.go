package compose

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/hashicorp/go-multierror"
)

// fill sets every field reachable from v (settable) to a value that is
// not its zero value, different for each leaf, and fails the test for a
// field it cannot set that way (unexported, a func, a channel): such a
// field would not cross from the helper to devenv as JSON.
func fill(t *testing.T, v reflect.Value, path string, n *int) {
	t.Helper()
	*n++
	if v.Type() == reflect.TypeOf(&Config{}) {
		// compose-go's own value crosses as compose-go writes it, not
		// field by field: compose/loader's TestConfigSurvivesJSON holds
		// it to the loader's value for every compose file of the fixtures
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("%s=v%d \u00e9\"\\\n", path, *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n) * 1_000_003)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), path, n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(t, v.Index(i), fmt.Sprintf("%s[%d]", path, i), n)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for i := range 2 {
			k := reflect.New(v.Type().Key()).Elem()
			fill(t, k, fmt.Sprintf("%s.key%d", path, i), n)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(t, e, fmt.Sprintf("%s[key%d]", path, i), n)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				t.Errorf("%s.%s is unexported: it does not cross from devenv-compose to devenv; export it or keep it out of compose.Service", path, f.Name)
				continue
			}
			fill(t, v.Field(i), path+"."+f.Name, n)
		}
	default:
		t.Errorf("%s is a %s, which does not cross from devenv-compose to devenv as JSON", path, v.Kind())
	}
}

// Every field of compose.Service, engine.ContainerSpec's included, arrives
// from the helper as the loader set it: a field added later and not
// encoded would make devenv run compose services differently from before.
func TestServiceRoundTripsEveryField(t *testing.T) {
	var full Service
	n := 0
	fill(t, reflect.ValueOf(&full).Elem(), "Service", &n)
	empty := Service{Name: "empty", DependsOn: []string{}, Warnings: []string{}, Build: &Build{Args: map[string]string{}}}
	empty.Container.Env, empty.Container.Labels = []string{}, map[string]string{}
	for _, c := range []struct {
		name string
		svcs []Service
	}{
		{"every field set", []Service{full}},
		{"zero service", []Service{{}}},
		{"empty lists and maps stay empty, not null", []Service{empty}},
		{"no services", []Service{}},
		{"null services", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := Response{Protocol: Protocol, Services: c.svcs}
			b, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			out, err := decodeResponse(b, "test")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(out.Services, c.svcs) {
				t.Errorf("services changed crossing as JSON:\nsent %#v\ngot  %#v", c.svcs, out.Services)
			}
		})
	}
}

func TestRawEnvironmentRoundTrips(t *testing.T) {
	for _, raw := range []map[string]map[string]string{nil, {}, {"db": {"PASSWORD": "${PG_PASSWORD}", "URL": "postgres://${U}@db"}}} {
		b, err := json.Marshal(Response{Protocol: Protocol, Raw: raw})
		if err != nil {
			t.Fatal(err)
		}
		out, err := decodeResponse(b, "test")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out.Raw, raw) {
			t.Errorf("raw environment %#v arrived as %#v", raw, out.Raw)
		}
	}
}

// The errors Load returns are the ones it returned when compose-go ran in
// devenv: a message, or a multierror listing every problem in its format.
func TestResponseErrorsAsBefore(t *testing.T) {
	r := Response{Protocol: Protocol, Error: "compose files /p/compose.yaml: services.web.image must be a string; `docker compose config` shows the same problem, fix it in the file"}
	if _, err := r.result(); err == nil || err.Error() != r.Error {
		t.Errorf("error = %v, want %q", err, r.Error)
	}
	r = Response{Protocol: Protocol, Problems: []string{`compose.yaml:4:5: service "a": x`, `compose.yaml:7:5: service "b": y`}}
	svcs, err := r.result()
	var me *multierror.Error
	if svcs != nil || !errors.As(err, &me) || len(me.Errors) != 2 || me.ErrorFormat == nil {
		t.Fatalf("result = %v, %#v; want a formatted multierror of 2", svcs, err)
	}
	want := "2 problem(s) in the compose files:\n  compose.yaml:4:5: service \"a\": x\n  compose.yaml:7:5: service \"b\": y"
	if err.Error() != want {
		t.Errorf("error =\n%s\nwant\n%s", err, want)
	}
}
