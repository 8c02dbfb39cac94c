package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/docker/docker/pkg/jsonmessage"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// decodeProgress reads the engine's JSON message stream (pull, build) to its
// end, hands every message to fn (if not nil) and returns the image id the
// stream announced in an aux message, if any. A message carrying an error
// ends the stream with that error.
func decodeProgress(r io.Reader, fn func(Progress)) (string, error) {
	dec := json.NewDecoder(r)
	var imageID string
	for {
		var msg jsonmessage.JSONMessage
		if err := dec.Decode(&msg); err != nil {
			if errors.Is(err, io.EOF) {
				return imageID, nil
			}
			return imageID, fmt.Errorf("reading the engine's progress stream: %w", err)
		}
		if id := auxImageID(msg.Aux); id != "" {
			imageID = id
		}
		p := toProgress(msg)
		if fn != nil && p != (Progress{}) {
			fn(p)
		}
		if p.Error != "" {
			return imageID, errors.New(p.Error)
		}
	}
}

// toProgress keeps the parts of a message a UI renders.
func toProgress(msg jsonmessage.JSONMessage) Progress {
	p := Progress{ID: msg.ID, Status: msg.Status, Stream: msg.Stream}
	if msg.Progress != nil {
		p.Current, p.Total = msg.Progress.Current, msg.Progress.Total
	}
	switch {
	case msg.Error != nil && msg.Error.Message != "":
		p.Error = msg.Error.Message
	case msg.ErrorMessage != "": //nolint:staticcheck // old engines set only this field
		p.Error = msg.ErrorMessage //nolint:staticcheck
	}
	return p
}

// auxImageID returns the image id of a build's aux message, or "".
func auxImageID(aux *json.RawMessage) string {
	if aux == nil {
		return ""
	}
	var v struct{ ID string }
	if err := json.Unmarshal(*aux, &v); err != nil {
		return ""
	}
	return v.ID
}

// ansiEscape matches terminal control sequences (colours, cursor moves) that
// build steps such as pip and apt write into their output.
var ansiEscape = lazy.Regexp(`\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)`)

// StripANSI removes terminal colour and cursor sequences from build output,
// for logs and terminals that would show them as garbage.
func StripANSI(s string) string { return ansiEscape().ReplaceAllString(s, "") }
