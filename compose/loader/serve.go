// Package loader loads a project's compose files with compose-go's loader
// and translates their services into compose.Service: the one devenv
// package that links compose-go's cli, loader and JSON-schema packages.
//
// devenv does not import it: the devenv-compose helper (cmd/devenv-compose)
// serves compose.Load and compose.RawEnvironment from its own process, so
// the schema compiler's init (milliseconds) is paid only by commands on
// projects with compose files. Importing it registers it as the in-process
// loader (compose.UseInProcess), which is how the tests of packages that
// load compose files run without a built helper:
//
//	import _ "github.com/devenv-dev/devenv/compose/loader"
package loader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/compose"
	"github.com/sirupsen/logrus"
)

func init() { compose.UseInProcess(Handle) }

// Handle answers one request.
func Handle(ctx context.Context, req compose.Request) compose.Response {
	resp := compose.Response{Protocol: compose.Protocol}
	if req.Protocol != compose.Protocol {
		resp.Error = fmt.Sprintf("devenv-compose speaks protocol %d and was asked in protocol %d: install devenv and devenv-compose from the same build", compose.Protocol, req.Protocol)
		return resp
	}
	switch req.Op {
	case compose.OpLoad:
		svcs, problems, err := load(ctx, req.Files, req.ProjectDir, req.ProjectName, req.Profiles)
		if err != nil {
			resp.Error = err.Error()
		}
		resp.Services, resp.Problems = svcs, problems
	case compose.OpRaw:
		resp.Raw = rawEnvironment(ctx, req.Files, req.ProjectDir, req.ProjectName)
	default:
		resp.Error = fmt.Sprintf("devenv-compose: unknown operation %q (it knows %q and %q)", req.Op, compose.OpLoad, compose.OpRaw)
	}
	return resp
}

// Serve is the helper's work: requests from in, one JSON object a line,
// each answered by its response as one line of JSON on out, until in ends.
// An error means a request could not be read or answered.
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	dec := json.NewDecoder(in)
	for n := 0; ; n++ {
		var req compose.Request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) && n > 0 {
				return nil
			}
			if errors.Is(err, io.EOF) {
				return errors.New("no request on stdin: devenv runs this program to load compose files, with JSON requests on stdin; run devenv instead")
			}
			return fmt.Errorf("reading a request on stdin: %w", err)
		}
		b, err := json.Marshal(serveOne(ctx, req))
		if err != nil {
			return fmt.Errorf("encoding the response: %w", err)
		}
		if _, err := out.Write(append(b, '\n')); err != nil {
			return err
		}
	}
}

// serveOne answers req with what compose-go logs while loading: at devenv's
// level, returned in the response for devenv to write.
func serveOne(ctx context.Context, req compose.Request) compose.Response {
	var log bytes.Buffer
	logrus.SetOutput(&log)
	if lvl, err := logrus.ParseLevel(req.LogLevel); err == nil {
		logrus.SetLevel(lvl)
	}
	resp := Handle(ctx, req)
	resp.Log = log.String()
	return resp
}
