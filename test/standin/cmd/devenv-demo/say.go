package main

import (
	"fmt"
	"strings"

	"github.com/devenv-dev/devenv/test/standin"
)

// sayStandins says, before anything runs, what is a stand-in and where.
func (d *demo) sayStandins(w *world) {
	var baseNote string
	switch {
	case w.base.real:
		baseNote = "the real " + w.base.ref + ", which this engine already held"
	case w.base.ref == standin.DebianRef:
		baseNote = "STAND-IN: " + standin.DebianRef + ", a minimal Debian bookworm made with debootstrap (no CUDA)"
	default:
		baseNote = "STAND-IN: " + w.base.ref + ", an image this engine already held (no CUDA)"
	}
	fmt.Fprintf(d.out, `
devenv-demo: devenv's default starter (spark-rapids) through devenv.yaml's mirrors:,
with local STAND-INS for what this machine cannot reach (nvcr.io, Maven, Apache,
PyPI). They are not NVIDIA's, Apache's or PyPI's software: they let you try
devenv's workflow (init, lock, up, ps, down), not run Spark on a GPU.
  registry   %-34s nvcr.io/%s
             = %s
  artifacts  %-34s Apache Spark %s (Scala %s) and the RAPIDS Accelerator %s jar
             = STAND-INS: spark-submit prints its arguments; the jar holds no code
  pypi       %-34s jupyterlab (%d releases)
             = STAND-IN: a small server that answers JupyterLab's /api and /lab
The image build still runs apt-get against the base image's own package
sources (Debian's or Ubuntu's); that needs their mirror (mirrors.apt) or a proxy.
`, w.registry, strings.TrimPrefix(w.res.BaseImage, "nvcr.io/"), baseNote,
		w.artifacts.URL(), w.res.Spark, w.res.Scala, w.res.Rapids, w.pypi.URL(), len(w.jupyter))
}

// sayNext says what is left and the commands to go on with.
func (d *demo) sayNext(w *world) {
	fmt.Fprintf(d.out, `
devenv-demo: the demo project runs in %s
(project %s; the stand-in servers have stopped: ps, up and down need none of them;
a changed devenv.yaml or a new lock does, so run make demo again for those).
Next:
  cd %s && %s ps
  cd %s && %s down
(devenv verify exits 1 here: it runs a query on Spark, and the stand-in's
spark-submit only prints its arguments.)
For the real NGC stack on a machine with network and an NGC key, in your own
project directory: devenv init && devenv lock && devenv up
`, d.dir, projectName(d.dir), d.dir, d.devenv, d.dir, d.devenv)
}
