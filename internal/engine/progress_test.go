package engine

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDecodeProgress(t *testing.T) {
	tests := []struct {
		stream  string
		wantID  string
		wantErr string
	}{
		{stream: "pull.jsonl"},
		{stream: "build.jsonl", wantID: "sha256:5f1b7c2d9e0a6b0c6d3b1f2e4a5c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8"},
		{stream: "build-error.jsonl", wantErr: "COPY failed: file not found in build context or excluded by .dockerignore: stat missing: file does not exist"},
		{stream: "pull-error-old.jsonl", wantErr: "manifest for nope:latest not found"},
		{stream: "truncated.jsonl", wantErr: "reading the engine's progress stream: unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.stream, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", tt.stream))
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = f.Close() }()
			var events []Progress
			id, err := decodeProgress(f, func(p Progress) { events = append(events, p) })
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.wantErr {
				t.Errorf("error = %q, want %q", gotErr, tt.wantErr)
			}
			if id != tt.wantID {
				t.Errorf("image id = %q, want %q", id, tt.wantID)
			}
			checkGolden(t, tt.stream+".golden.json", events)
		})
	}
}

func TestDecodeProgressNilCallback(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "build.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if _, err := decodeProgress(f, nil); err != nil {
		t.Fatalf("decodeProgress with no callback: %v", err)
	}
}
