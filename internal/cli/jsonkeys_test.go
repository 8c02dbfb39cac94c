package cli

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/envs/reconcile"
	"github.com/devenv-dev/devenv/internal/app"
	"github.com/devenv-dev/devenv/internal/doctor"
	"github.com/devenv-dev/devenv/internal/jobs"
	"github.com/devenv-dev/devenv/internal/mirror"
	"github.com/devenv-dev/devenv/internal/view"
	"github.com/devenv-dev/devenv/profiles"
)

// TestJSONKeysAreSnakeCase walks every type a command prints with --json
// and fails on a field whose key would not be snake_case: an untagged
// field (Go would print its CamelCase name) or a tag in another style.
func TestJSONKeysAreSnakeCase(t *testing.T) {
	results := map[string]any{
		"config": app.Config{}, "logs --diagnose": []app.Diagnosis{}, "diff": app.DiffResult{},
		"config spark --explain": app.SparkExplain{}, "gpus": app.GPUsResult{}, "lock": app.LockResult{},
		"mirror": app.MirrorResult{}, "mirror --print": mirror.Profile{}, "top": app.TopSample{},
		"up, down, build": app.Result{}, "ps": []reconcile.Status{}, "init": app.InitResult{},
		"export": app.ExportResult{}, "verify": app.VerifyReport{}, "doctor": doctor.Report{}, "profiles": profiles.Summary{},
		"jobs": []jobs.Job{}, "logs": view.LogLine{}, "errors": jsonError{},
	}
	for cmd, v := range results {
		for _, bad := range badKeys(reflect.TypeOf(v), cmd, map[reflect.Type]bool{}) {
			t.Errorf("%s", bad)
		}
	}
}

var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

func badKeys(t reflect.Type, path string, seen map[reflect.Type]bool) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] || t.PkgPath() == "time" {
		return nil
	}
	seen[t] = true
	if _, custom := reflect.New(t).Interface().(interface{ MarshalJSON() ([]byte, error) }); custom {
		return nil
	}
	var bad []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
			continue
		case name == "" && f.Anonymous:
			bad = append(bad, badKeys(f.Type, path, seen)...)
			continue
		case !snake.MatchString(name):
			bad = append(bad, path+": "+t.String()+"."+f.Name+" has key "+keyOf(name, f.Name))
		}
		bad = append(bad, badKeys(f.Type, path+"."+keyOf(name, f.Name), seen)...)
	}
	return bad
}

func keyOf(tag, field string) string {
	if tag == "" {
		return field
	}
	return tag
}
