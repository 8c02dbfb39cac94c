package images

import (
	"fmt"
	"io"
)

// WriteContext writes the service's build context to w as a tar stream. For
// a profile template it holds only the declared inputs: the Dockerfile, the
// artifacts, the generated files, the requirements file and CA certificates.
// For a user's Dockerfile it holds that Dockerfile's directory, filtered by
// its .dockerignore and never holding .git, .env*, *.pem, *.key or .devenv.
func WriteContext(in Input, w io.Writer) error {
	entries, err := contextEntries(in)
	if err != nil {
		return err
	}
	return writeTar(w, entries)
}

// contextEntries lists the build context of in, Dockerfile first for
// template builds.
func contextEntries(in Input) ([]entry, error) {
	if !in.needsBuild() {
		return nil, fmt.Errorf("service %q runs image %s as it is: it has no build context", in.Service, in.Base)
	}
	if in.UserDockerfile != "" {
		return userEntries(in.UserDockerfile)
	}
	r, err := newRecipe(in)
	if err != nil {
		return nil, err
	}
	dockerfile, err := renderRecipe(r, in.Service)
	if err != nil {
		return nil, err
	}
	return generatedEntries(in, r, dockerfile, true)
}
