package app

// Tests here load compose files: compose-go runs in this test process, as
// it does in the devenv-compose helper for devenv itself.
import _ "github.com/devenv-dev/devenv/compose/loader"
