//go:build tools

// Package tools pins modules that devenv's packages use, so that `go mod
// tidy` keeps them while the packages that import them are written.
package tools

import (
	_ "github.com/NVIDIA/go-nvml/pkg/nvml"
	_ "github.com/compose-spec/compose-go/v2/loader"
	_ "github.com/docker/docker/client"
	_ "github.com/golang/snappy"
	_ "github.com/google/go-containerregistry/pkg/registry"
	_ "github.com/hashicorp/go-multierror"
	_ "github.com/klauspost/compress/zstd"
	_ "github.com/pierrec/lz4/v4"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/urfave/cli/v2"
	_ "gopkg.in/yaml.v3"
)
