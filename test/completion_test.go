package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// TestCompletionScriptsLoadInTheirShells loads `devenv completion SHELL`
// in the real bash, zsh and fish (a shell that is not installed is
// skipped) and asks each for the candidates a user would get on Tab:
// commands, the project's services, flags. No engine is needed.
func TestCompletionScriptsLoadInTheirShells(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(standin.Devenv(t), filepath.Join(bin, "devenv")); err != nil {
		t.Fatal(err)
	}
	dir := standin.Project(t, map[string]string{"devenv.yaml": "name: comp\nservices:\n  spark:\n    profile: image\n    image: x\n  web:\n    profile: image\n    image: y\n"})
	const want = "lock logs | spark web | web | --tail | bash fish zsh"

	bash := `source <(devenv completion bash)
comp() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _devenv; printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd' '; }
comp devenv lo; comp devenv logs ""; comp devenv logs spark ""; comp devenv logs --ta; comp devenv completion ""`
	// compadd only works inside a completion widget: stand in for it with a
	// function that prints what it is given, filtered as zsh would.
	zsh := `autoload -U compinit; compinit -u -D; source <(devenv completion zsh)
[[ $_comps[devenv] == _devenv ]] || { print "not registered"; exit 1 }
comp() { words=("$@"); CURRENT=$#words; compadd() { shift; local -a m=(${(M)@:#${words[CURRENT]}*}); m=(${(o)m}); print -r -- "$m" }; _devenv }
comp devenv lo; comp devenv logs ""; comp devenv logs spark ""; comp devenv logs --ta; comp devenv completion ""`
	fish := `devenv completion fish | source
for line in "devenv lo" "devenv logs " "devenv logs spark " "devenv logs --ta" "devenv completion "
    complete -C "$line" | sort | string join " "
end`
	for _, tt := range []struct{ shell, script string }{
		{"bash", bash}, {"zsh", zsh}, {"fish", fish},
	} {
		t.Run(tt.shell, func(t *testing.T) {
			path, err := exec.LookPath(tt.shell)
			if err != nil {
				t.Skipf("%s is not installed here", tt.shell)
			}
			args := []string{"-c", tt.script}
			if tt.shell == "zsh" {
				args = append([]string{"-f"}, args...)
			}
			cmd := exec.Command(path, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			got := strings.Join(strings.Split(strings.TrimSpace(string(out)), "\n"), " | ")
			if err != nil || got != want {
				t.Fatalf("%s completion (%v):\n got %s\nwant %s", tt.shell, err, got, want)
			}
		})
	}
}
