package spec

import (
	"github.com/devenv-dev/devenv/internal/pipreq"
	"github.com/devenv-dev/devenv/internal/redact"
	"github.com/devenv-dev/devenv/internal/safefile"
)

// checkRequirements reads the service's requirements file (a regular file
// of bounded size) and refuses every line that could point the image
// build at another index, a URL or a file (internal/pipreq), each at its
// line in the requirements file.
func (l *loader) checkRequirements(t *svcNodes) {
	path := t.s.Requirements
	if path == "" {
		return
	}
	d := l.decoderFor(path)
	data, err := safefile.ReadInDir(l.p.Dir, path, safefile.MaxConfig)
	if err != nil {
		d.errPos(Pos{}, "point requirements: at a regular requirements file", "cannot read: %v", err)
		return
	}
	for _, line := range pipreq.Lines(string(data)) {
		if p := pipreq.Problem(line.Text); p != "" {
			d.errPos(Pos{Line: line.N, Col: 1}, "devenv builds install from mirrors.pypi (or DEVENV_MIRROR_PYPI) only: write requirement specifiers such as \"pandas==2.2.2\", and set the index there",
				"%q %s", redact.URLs(line.Text), p)
		}
	}
}
