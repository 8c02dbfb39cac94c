package view

import (
	"fmt"
	"io"

	"github.com/devenv-dev/devenv/internal/app"
)

// Init is `devenv init`: the file written and what to run next.
func Init(w io.Writer, r *app.InitResult) {
	fmt.Fprintf(w, "wrote %s (profile %s); next: devenv lock && devenv up\n", r.File, r.Profile)
}
