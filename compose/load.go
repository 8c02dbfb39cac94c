package compose

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/sirupsen/logrus"
)

// Load reads the project's compose files with compose-go: variables are
// interpolated from the environment and the project's .env, services
// outside the active profiles (profiles; when none are given,
// COMPOSE_PROFILES from the environment or .env; "*" for all) are dropped, env_file is merged into the
// environment and relative paths are made absolute against projectDir.
// It returns the services sorted by name. Every problem of every service is
// reported at once, each naming the compose file, the service and the fix.
//
// compose-go runs in the devenv-compose helper (see Helper), so that devenv
// itself does not link compose-go's loader, whose JSON-schema compiler
// costs every command milliseconds before main; projects without compose
// files never start it.
func Load(ctx context.Context, files []string, projectDir, projectName string, profiles []string) ([]Service, error) {
	if len(files) == 0 {
		return nil, nil
	}
	resp, err := ask(ctx, Request{Op: OpLoad, Files: files, ProjectDir: projectDir, ProjectName: projectName, Profiles: profiles})
	if err != nil {
		return nil, err
	}
	return resp.result()
}

// RawEnvironment is each service's environment entries as the compose files
// write them, for the entries that refer to variables (`${VAR}`). Exports
// write these instead of the values, so docker compose reads .env and the
// shell when it runs the export and devenv never copies a value from them
// into a file. Files that load only after interpolation (a `${N}` where a
// number must be) give no raw entries. A helper that cannot be run or
// fails is an error: without the raw entries an export would copy values.
func RawEnvironment(ctx context.Context, files []string, projectDir, projectName string) (map[string]map[string]string, error) {
	resp, err := ask(ctx, Request{Op: OpRaw, Files: files, ProjectDir: projectDir, ProjectName: projectName, Profiles: []string{"*"}})
	if err != nil {
		// without the raw entries an export would write the values of
		// .env and the shell into its file: fail rather than leak them
		return nil, err
	}
	return resp.Raw, nil
}

// Handler answers a request in this process, as the helper does in its own.
type Handler func(ctx context.Context, req Request) Response

var inProcess Handler

// UseInProcess makes Load and RawEnvironment call h instead of running the
// helper. compose/loader registers itself so when it is linked: the tests
// of packages that load compose files import it (import _
// "github.com/devenv-dev/devenv/compose/loader") and need no built helper;
// devenv itself never links it. Call it from an init function.
func UseInProcess(h Handler) { inProcess = h }

// ask sends req to the in-process loader when one is registered, else to the
// helper, both through the JSON the helper speaks, and checks the answer's
// protocol.
func ask(ctx context.Context, req Request) (*Response, error) {
	req.Protocol = Protocol
	req.LogLevel = logrus.GetLevel().String()
	in, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("compose request: %w", err)
	}
	var out []byte
	where := "the in-process compose loader"
	if h := inProcess; h != nil {
		out, err = serveInProcess(ctx, h, in)
	} else {
		where = "the compose helper"
		var path string
		path, out, err = runHelper(ctx, in)
		if path != "" {
			where += " " + path
		}
	}
	if err != nil {
		return nil, err
	}
	resp, err := decodeResponse(out, where)
	if err == nil && resp.Log != "" {
		_, _ = io.WriteString(logrus.StandardLogger().Out, resp.Log)
	}
	return resp, err
}

// serveInProcess answers the request's JSON with the response's JSON, as
// the helper would.
func serveInProcess(ctx context.Context, h Handler, in []byte) ([]byte, error) {
	var req Request
	if err := json.Unmarshal(in, &req); err != nil {
		return nil, fmt.Errorf("compose request: %w", err)
	}
	out, err := json.Marshal(h(ctx, req))
	if err != nil {
		return nil, fmt.Errorf("compose response: %w", err)
	}
	return out, nil
}
