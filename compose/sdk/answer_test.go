package sdk

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/devenv-dev/devenv/internal/endpoint"
	"github.com/devenv-dev/devenv/internal/engine"
)

// TestOversizedAnswerFailsTheSDKsCall: an engine whose every answer past
// the ping is an endless listing fails the SDK's Stop with devenv's
// AnswerError, classified as an unreachable engine (exit 3) naming the
// endpoint: Compose keeps the error's chain, and its client is capped.
func TestOversizedAnswerFailsTheSDKsCall(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/_ping") {
			w.Header().Set("Api-Version", "1.41")
			_, _ = w.Write([]byte("OK"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("["))
		chunk := []byte(strings.Repeat(`{"Id":"0123456789ab","Names":["/demo-spark"]},`, 1024))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	host := "tcp://" + strings.TrimPrefix(srv.URL, "http://")
	opts := endpoint.Options{ConfigDir: t.TempDir(), Getenv: func(k string) string {
		if k == "DOCKER_HOST" {
			return host
		}
		return ""
	}}
	ep, err := endpoint.Resolve(opts)
	if err != nil {
		t.Fatal(err)
	}
	x := New(ep, opts, nil)
	proj := &types.Project{Name: "demo", Services: types.Services{"spark": {Name: "spark"}}}
	err = x.StopProject(t.Context(), engine.ProjectStop{Project: proj, Services: []string{"spark"}})
	var ae *engine.AnswerError
	if !errors.As(err, &ae) || !errors.Is(err, engine.ErrUnreachable) {
		t.Fatalf("StopProject = %v; want an AnswerError classified unreachable", err)
	}
	t.Logf("the SDK says: %v", err)
	for _, want := range []string{"went over 8 MiB", ep.String()} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
