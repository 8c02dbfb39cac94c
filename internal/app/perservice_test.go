package app

import (
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/internal/exitcode"
)

const chain = `name: demo
services:
  web:
    profile: image
    image: debian:12
    depends_on: [api]
  api:
    profile: image
    image: debian:12
    depends_on: [db]
  db:
    profile: image
    image: debian:12
`

func TestDependencyOrder(t *testing.T) {
	p := New(testProject(t, chain), Options{})
	tests := []struct{ in, want string }{
		{"web db api", "db api web"},
		{"web", "web"},
		{"api web", "api web"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(p.dependencyOrder(strings.Fields(tt.in)), " "); got != tt.want {
			t.Errorf("dependencyOrder(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPerServiceUsageErrors(t *testing.T) {
	p := New(testProject(t, chain), Options{})
	ctx := t.Context()
	if _, err := p.Down(ctx, DownOptions{Services: []string{"db"}, Volumes: true}); exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "every service shares") {
		t.Errorf("down db --volumes: %v", err)
	}
	if _, err := p.Stop(ctx, ServiceOptions{Services: []string{"nope"}}); exitcode.Of(err) != exitcode.Usage {
		t.Errorf("stop nope: %v", err)
	}
	if _, err := p.OnlyService(); exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "3 services") {
		t.Errorf("OnlyService of three: %v", err)
	}
	one := New(testProject(t, "name: one\nservices:\n  box:\n    profile: image\n    image: debian:12\n"), Options{})
	if s, err := one.OnlyService(); s != "box" || err != nil {
		t.Errorf("OnlyService of one: %q %v", s, err)
	}
}
