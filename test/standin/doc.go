// Package standin provides local stand-ins for the outside world that
// devenv's end-to-end tests need: a Debian base image built with debootstrap,
// an in-process OCI registry, an HTTP server with Maven and Apache archive
// layouts, a builder and runner for the devenv binary, and project fixtures
// with label-based cleanup.
//
// devenv reaches every stand-in only through its own mirrors: settings, so
// the tests exercise the same code paths as a corporate or air-gapped setup.
// The helpers take a testing.TB and fail the test loudly (never skip) when
// the Docker Engine or a required tool is missing: a skipped end-to-end test
// in CI hides a broken environment.
package standin
