package export

import (
	"slices"
	"strings"
	"testing"
)

// TestComposeExportNamesItsProfiles: an export made with compose profiles
// enabled holds their services, and its header says to enable each of
// their profiles once (docker compose skips them otherwise), however often
// COMPOSE_PROFILES named them.
func TestComposeExportNamesItsProfiles(t *testing.T) {
	for _, tc := range []struct {
		active, want string // want: "" for no such line
	}{
		{"", ""},
		{"debug,debug,debug", "COMPOSE_PROFILES=debug docker compose"},
		{"tools", "COMPOSE_PROFILES=tools docker compose"},
	} {
		t.Run(tc.active, func(t *testing.T) {
			t.Setenv("COMPOSE_PROFILES", tc.active)
			p := fixture(t, "profiled")
			pl, err := PlanUnlocked(p, fileHost, testOptions(p))
			if err != nil {
				t.Fatal(err)
			}
			data := string(composeOf(t, pl, nil))
			line := ""
			for _, l := range strings.Split(data, "\n") {
				if strings.Contains(l, "COMPOSE_PROFILES=") {
					line = l
				}
			}
			switch {
			case tc.want == "" && line != "":
				t.Errorf("header says %q; no profile is needed", line)
			case tc.want != "" && !strings.Contains(line, tc.want):
				t.Errorf("header line %q, want it to say %q\n%s", line, tc.want, data)
			}
		})
	}
}

// TestNeededProfiles: each profile once, in the order COMPOSE_PROFILES
// names them (it was P,P,P for `--profile P` seen at each level of a
// command), only those the file's services need.
func TestNeededProfiles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		each   [][]string // each service's profiles
		active []string
		want   []string
	}{
		{"none", nil, []string{"debug"}, nil},
		{"one profile, named again", [][]string{{"debug"}, {"debug"}}, []string{"debug", "debug", "debug"}, []string{"debug"}},
		{"the user's order", [][]string{{"x"}, {"y"}}, []string{"y", "x"}, []string{"y", "x"}},
		{"only those needed", [][]string{{"x", "z"}}, []string{"z", "other"}, []string{"z"}},
		{"every profile", [][]string{{"x", "z"}, {"y"}}, []string{"*"}, []string{"x", "z", "y"}},
		{"from .env, not seen here", [][]string{{"x", "z"}, {"y"}}, nil, []string{"x", "y"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := neededProfiles(tc.each, tc.active); !slices.Equal(got, tc.want) {
				t.Errorf("neededProfiles = %q, want %q", got, tc.want)
			}
		})
	}
}
