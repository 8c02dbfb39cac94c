package images

import (
	"fmt"
	"io"

	"github.com/hashicorp/go-multierror"
)

// WriteContext writes the service's build context to w as a tar stream. For
// a profile template it holds only the declared inputs: the Dockerfile, the
// generated files, the requirements file and CA certificates; artifacts
// reach the engine once each, in their own images (artifact.go).
// For a user's Dockerfile it holds that Dockerfile's directory, filtered by
// its .dockerignore and never holding .git, .env*, *.pem, *.key or .devenv.
func WriteContext(in Input, w io.Writer) error {
	entries, _, err := contextEntries(in)
	if err != nil {
		return err
	}
	return writeTar(w, entries)
}

// contextEntries lists the build context of in, Dockerfile first for
// template builds, and the artifact images its Dockerfile copies from.
func contextEntries(in Input) ([]entry, []artifactImage, error) {
	if !in.needsBuild() {
		return nil, nil, fmt.Errorf("service %q runs image %s as it is: it has no build context", in.Service, in.Base)
	}
	if in.userBuild() {
		e, err := userEntries(in)
		return e, nil, err
	}
	r, dockerfile, err := recipeFor(in)
	if err != nil {
		return nil, nil, err
	}
	e, err := generatedEntries(in, r, dockerfile)
	return e, r.artifacts, multierror.Append(artifactFilesMissing(in), err).ErrorOrNil()
}

// artifactFilesMissing reports every artifact file that is not on disk, so
// that a build fails before anything reaches the engine.
func artifactFilesMissing(in Input) *multierror.Error {
	var errs *multierror.Error
	for _, f := range in.Files {
		if _, err := fileSize(f.Path); err != nil {
			errs = multierror.Append(errs, fmt.Errorf("service %q: artifact %s: %w; run `devenv lock` to download it again", in.Service, f.Name, err))
		}
	}
	return errs
}
