package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/devenv-dev/devenv/test/standin"
)

// installScript installs the .deb on a clean Debian, runs devenv version,
// docker devenv version (the host's docker CLI, bound in), the completions
// in bash, zsh and fish, devenv init && devenv config as a user who is not
// root, purges the package and finds nothing left; then the same from the
// archive, its checksum checked.
const installScript = `set -eu
snap() { find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /run -o -path /var/lib/dpkg -o -path /var/log -o -path /var/cache -o -path /dist \) -prune -o -print | sort; }
useradd -m dev
snap > /tmp/before
dpkg -i /dist/devenv_*_amd64.deb
devenv version | grep -q '^devenv '
docker devenv version | grep -q '^compose SDK: '
test -f /usr/share/man/man1/devenv.1.gz
bash -c 'source /usr/share/bash-completion/bash_completion; _completion_loader devenv; complete -p devenv' | grep -q _devenv
su dev -c "zsh -fc 'autoload -U compinit; compinit -u -d /tmp/zc; [[ \$_comps[devenv] == _devenv ]]'"
su dev -c "fish -c 'complete -C \"devenv vers\"'" | grep -q version
su dev -c 'mkdir -p ~/p && cd ~/p && devenv init --profile image >/dev/null && devenv config >/dev/null'
dpkg --purge devenv
rm -rf /home/dev/p /home/dev/.cache /home/dev/.local /home/dev/.config
snap > /tmp/after
diff /tmp/before /tmp/after
cd /tmp && cp /dist/checksums.txt /dist/devenv_*_linux_amd64.tar.gz . && sha256sum -c --ignore-missing checksums.txt
su dev -c 'mkdir -p ~/.local/bin ~/.docker/cli-plugins && tar -xzf /tmp/devenv_*_linux_amd64.tar.gz -C ~/.local --strip-components=1 &&
  mv ~/.local/devenv ~/.local/devenv-core ~/.local/devenv-nvml ~/.local/bin/ && ln -s ~/.local/bin/devenv ~/.docker/cli-plugins/docker-devenv &&
  ~/.local/bin/devenv version | grep -q "^devenv " && docker devenv version | grep -q "^compose-go: "'
echo INSTALL-OK
`

// TestInstallOnCleanDebian runs installScript in containers of two Debian
// releases, debootstrapped (cached like the standin's base), on the
// release of HEAD that TestReleaseSnapshotIsReproducible also checks (built
// once for both).
func TestInstallOnCleanDebian(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: builds the release and debootstraps two Debian releases")
	}
	docker, err := exec.LookPath("docker")
	if err != nil {
		t.Skip("no docker CLI here to bind into the containers")
	}
	for _, suite := range standin.InstallSuites {
		t.Run(suite, func(t *testing.T) {
			t.Parallel()
			img := standin.DebianSuite(t, suite, standin.InstallPackages)
			dist := sharedRelease(t).Dist
			name := uniqueName("install")
			cmd := exec.Command("docker", "run", "--rm", "--name", name, "--network", "none",
				"-v", dist+":/dist:ro", "-v", docker+":/usr/bin/docker:ro", img, "bash", "-c", installScript)
			t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", name).Run() })
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "INSTALL-OK") {
				t.Fatalf("install on %s: %v\n%s", suite, err, out)
			}
		})
	}
}
