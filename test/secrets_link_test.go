package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretsThroughALinkAreRefused: a compose secret or config whose
// `file:` is written inside the project but is a symbolic link out of it
// is refused at load with the compose file's line, as the same path under
// volumes: is (one link rule for every key that names a host file); the
// container never gets the outside file at /run/secrets/s. With the link
// replaced by the project's own file, up runs and the secret is that file.
func TestSecretsThroughALinkAreRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	outside := filepath.Join(t.TempDir(), "host-secret.txt")
	if err := os.WriteFile(outside, []byte("outside-the-project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"secrets", "configs"} {
		t.Run(key, func(t *testing.T) {
			target := "/run/secrets/s"
			if key == "configs" {
				target = "/s"
			}
			dir, name := w.project(t, "compose: [compose.yaml]\nservices:\n  shell:\n    profile: image\n    image: nvcr.io/"+plainBase+"\n    command: [sleep, infinity]\n",
				map[string]string{"compose.yaml": "services:\n  side:\n    image: nvcr.io/" + plainBase + "\n    command: [sleep, infinity]\n    " + key + ": [s]\n" +
					key + ":\n  s:\n    file: ./s.txt\n"})
			if err := os.Symlink(outside, filepath.Join(dir, "s.txt")); err != nil {
				t.Fatal(err)
			}
			r := w.run(t, dir, "up")
			if out, err := exec.Command("docker", "cp", name+"-side:"+target, "-").CombinedOutput(); err == nil && strings.Contains(string(out), "outside-the-project") {
				t.Fatalf("the container got the file outside the project through the link at %s (up exit %d)\n%s", target, r.Code, r.Stderr)
			}
			if r.Code != 2 || !strings.Contains(r.Stderr, "compose.yaml:8:11") || !strings.Contains(r.Stderr, "symbolic link to "+outside) {
				t.Fatalf("up with %s s: file: ./s.txt a link out of the project: exit %d, want 2 and the refusal at compose.yaml:8:11 naming the link\n%s", key, r.Code, r.Stderr)
			}
			if err := os.Remove(filepath.Join(dir, "s.txt")); err != nil {
				t.Fatal(err)
			}
			writeFile(t, dir, "s.txt", "inside-the-project\n")
			w.must(t, dir, "up")
			out, err := exec.Command("docker", "cp", name+"-side:"+target, "-").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "inside-the-project") {
				t.Fatalf("docker cp %s: %v\n%s", target, err, out)
			}
		})
	}
}
