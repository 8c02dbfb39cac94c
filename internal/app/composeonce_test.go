package app

import (
	"context"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/compose/loader"
)

// TestCommandsReadComposeFilesOnce: compose-go reads a project's compose
// files once per command (the project's loader.Files), whatever the
// command asks of them: the lock check and lock want every profile, the
// plan and doctor's port checks (in up's GPU preflight) the active ones,
// each selection made once from that one read. An export also reads the
// files without interpolation, for the ${VAR} entries as written. The
// process's count of reads holds every package to the project's Files.
func TestCommandsReadComposeFilesOnce(t *testing.T) {
	const yaml = "name: demo\ncompose: [compose.yaml]\nservices:\n  app:\n    profile: image\n    image: x:1\n"
	const plain = "services:\n  db:\n    image: postgres:16\n    ports: [\"5432\"]\n    environment: {PGUSER: '${PGUSER:-hive}'}\n" +
		"  debug:\n    image: busybox:1.36\n    profiles: [debug]\n"
	everyProfile, active := 1, 1
	tests := []struct {
		name    string
		yaml    string // devenv.yaml when not yaml
		compose string
		locked  bool
		run     func(context.Context, *Project) error
		wantErr string // the command fails so (after reading)
		want    loader.Stats
	}{
		{name: "lock", compose: plain, run: lockWith(LockOptions{}),
			want: loader.Stats{Reads: 1, Selections: everyProfile}},
		{name: "lock of a fresh lock", compose: plain, locked: true, run: lockWith(LockOptions{}),
			want: loader.Stats{Reads: 1, Selections: everyProfile}},
		{name: "lock --upgrade", compose: plain, locked: true, run: lockWith(LockOptions{Upgrade: true}),
			want: loader.Stats{Reads: 1, Selections: everyProfile}},
		{name: "lock --check", compose: plain, locked: true, run: lockWith(LockOptions{Check: true}),
			want: loader.Stats{Reads: 1, Selections: everyProfile}},
		{name: "up", compose: plain, locked: true, run: upWith(UpOptions{}),
			want: loader.Stats{Reads: 1, Selections: everyProfile + active}},
		{name: "up without a lock", compose: plain, run: upWith(UpOptions{}),
			want: loader.Stats{Reads: 1, Selections: everyProfile + active}},
		{name: "up --dry-run", compose: plain, locked: true, run: upWith(UpOptions{DryRun: true}),
			want: loader.Stats{Reads: 1, Selections: everyProfile + active}},
		{name: "up stopped by the GPU preflight", yaml: yaml + "    gpus: 1\n", compose: plain, locked: true, run: upWith(UpOptions{}),
			wantErr: "cannot run the GPU services", want: loader.Stats{Reads: 1, Selections: everyProfile + active}},
		{name: "config", compose: plain, locked: true, run: func(ctx context.Context, p *Project) error { _, err := p.Config(ctx, nil); return err },
			want: loader.Stats{Reads: 1, Selections: everyProfile + active}},
		{name: "config without a lock", compose: plain, run: func(ctx context.Context, p *Project) error { _, err := p.Config(ctx, nil); return err },
			want: loader.Stats{Reads: 1, Selections: active}},
		{name: "export compose", compose: plain, locked: true, run: func(ctx context.Context, p *Project) error {
			_, err := p.Export(ctx, ExportOptions{Format: ExportCompose})
			return err
		}, want: loader.Stats{Reads: 2, Selections: everyProfile + active + 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := yaml
			if tt.yaml != "" {
				y = tt.yaml
			}
			w := newWorld(t, y, map[string]string{"compose.yaml": tt.compose})
			if tt.locked {
				w.lock(t)
			}
			p := w.open(t)
			before := loader.ProcessReads()
			err := tt.run(t.Context(), p)
			reads := loader.ProcessReads() - before
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatal(err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("err = %v; want one saying %q", err, tt.wantErr)
			}
			if p.compose == nil {
				t.Fatal("the command read no compose file")
			}
			if got := p.compose.Stats(); got != tt.want {
				t.Errorf("compose files read %d times, %d profile selections made; want %d and %d", got.Reads, got.Selections, tt.want.Reads, tt.want.Selections)
			}
			if reads != int64(tt.want.Reads) {
				t.Errorf("the command read the compose files %d times in all; want %d: a package read them without the project's loader.Files", reads, tt.want.Reads)
			}
		})
	}
}

func lockWith(o LockOptions) func(context.Context, *Project) error {
	return func(ctx context.Context, p *Project) error { _, err := p.Lock(ctx, o); return err }
}

func upWith(o UpOptions) func(context.Context, *Project) error {
	return func(ctx context.Context, p *Project) error { _, err := p.Up(ctx, o); return err }
}
