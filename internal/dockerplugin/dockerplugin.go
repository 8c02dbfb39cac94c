// Package dockerplugin lets devenv run as a Docker CLI plugin: installed
// as docker-devenv in one of the docker CLI's cli-plugins directories,
// `docker devenv ARGS` runs `devenv ARGS`. The docker CLI first asks the
// plugin for its metadata (docker-cli-plugin-metadata), then runs it with
// its own arguments as typed, its global flags included
// (`docker --context gpu devenv up` runs `docker-devenv --context gpu
// devenv up`); Translate hands those flags to devenv's own.
//
// It imports only the standard library: the small devenv front uses it.
package dockerplugin

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// Name is the command name under docker, and ProgramName the plugin's file.
const (
	Name        = "devenv"
	ProgramName = "docker-" + Name
	// MetadataCommand is the docker CLI's question to every plugin.
	MetadataCommand = "docker-cli-plugin-metadata"
)

// IsPlugin says whether the program was started as the docker CLI plugin
// (its file, or the link to it, is named docker-devenv).
func IsPlugin(argv0 string) bool {
	base := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	return base == ProgramName
}

// Metadata is the plugin's answer to docker-cli-plugin-metadata (the docker
// CLI's cli-plugins/metadata.Metadata, schema 0.1.0).
func Metadata(version string) []byte {
	b, _ := json.Marshal(struct {
		SchemaVersion, Vendor, Version, ShortDescription, URL string
	}{"0.1.0", "devenv-dev", version, "Pinned, GPU-ready Spark / RAPIDS / Triton environments per project", "https://github.com/devenv-dev/devenv"})
	return append(b, '\n')
}

// Call is what a plugin run becomes: devenv's arguments and the variables
// to add to its environment.
type Call struct {
	Args []string // Args[0] is "devenv"
	Env  []string // KEY=VALUE
	// Metadata is set when the docker CLI asked for the metadata.
	Metadata bool
}

// docker's global flags (cli/flags.ClientOptions) and what devenv makes of
// them: a devenv flag, a variable, or nothing (log level).
type globalFlag struct {
	long, short string
	value       bool // takes a value
}

var globalFlags = []globalFlag{
	{"context", "c", true}, {"host", "H", true}, {"config", "", true}, {"log-level", "l", true},
	{"debug", "D", false}, {"tls", "", false}, {"tlsverify", "", false},
	{"tlscacert", "", true}, {"tlscert", "", true}, {"tlskey", "", true},
}

// Translate turns the plugin's arguments (argv[0], docker's global flags,
// "devenv", devenv's arguments) into devenv's: --context and -H become
// devenv's --context and --host, --config DOCKER_CONFIG, -D --debug,
// --tlsverify DOCKER_TLS_VERIFY and the certificate files DOCKER_CERT_PATH
// (devenv reads TLS material as the docker CLI's DOCKER_CERT_PATH: ca.pem,
// cert.pem and key.pem in one directory).
func Translate(argv []string) (Call, error) {
	if len(argv) == 2 && argv[1] == MetadataCommand {
		return Call{Metadata: true}, nil
	}
	var c Call
	var flags []string
	certDir := ""
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == Name {
			break
		}
		f, val, ok, err := parseFlag(argv, &i)
		if err != nil {
			return Call{}, err
		}
		if !ok {
			return Call{}, fmt.Errorf("docker ran %s with %q before %q: run it as `docker [OPTIONS] devenv COMMAND`", ProgramName, a, Name)
		}
		switch f.long {
		case "context", "host":
			flags = append(flags, "--"+f.long, val)
		case "config":
			c.Env = append(c.Env, "DOCKER_CONFIG="+val)
		case "debug":
			if val != "false" {
				flags = append(flags, "--debug")
			}
		case "tls", "tlsverify":
			if val != "false" {
				c.Env = append(c.Env, "DOCKER_TLS_VERIFY=1")
			}
		case "tlscacert", "tlscert", "tlskey":
			dir, err := certFile(f.long, val, certDir)
			if err != nil {
				return Call{}, err
			}
			certDir = dir
		}
	}
	if i >= len(argv) {
		return Call{}, fmt.Errorf("%s is devenv's Docker CLI plugin: run it as `docker devenv COMMAND` (or run devenv itself)", ProgramName)
	}
	if certDir != "" {
		c.Env = append(c.Env, "DOCKER_CERT_PATH="+certDir)
	}
	c.Args = append(append([]string{Name}, flags...), argv[i+1:]...)
	return c, nil
}

// parseFlag reads the docker global flag at argv[*i] (--name, --name=v,
// --name v, -x v, -x=v, -xv), moving *i past its value.
func parseFlag(argv []string, i *int) (globalFlag, string, bool, error) {
	a := argv[*i]
	name, val, hasVal := "", "", false
	switch {
	case strings.HasPrefix(a, "--"):
		name, val, hasVal = strings.Cut(a[2:], "=")
	case strings.HasPrefix(a, "-") && len(a) >= 2:
		name, val = a[1:2], strings.TrimPrefix(a[2:], "=")
		hasVal = len(a) > 2
	default:
		return globalFlag{}, "", false, nil
	}
	for _, f := range globalFlags {
		if name != f.long && (f.short == "" || name != f.short) {
			continue
		}
		if !f.value {
			if !hasVal {
				val = "true"
			}
			return f, val, true, nil
		}
		if !hasVal {
			if *i+1 >= len(argv) {
				return f, "", true, fmt.Errorf("docker's --%s needs a value", f.long)
			}
			*i++
			val = argv[*i]
		}
		return f, val, true, nil
	}
	return globalFlag{}, "", false, nil
}

var certNames = map[string]string{"tlscacert": "ca.pem", "tlscert": "cert.pem", "tlskey": "key.pem"}

// certFile checks that a TLS file given to docker is where DOCKER_CERT_PATH
// would find it.
func certFile(flag, path, dir string) (string, error) {
	want := certNames[flag]
	d := filepath.Dir(path)
	if filepath.Base(path) != want || (dir != "" && dir != d) {
		return "", fmt.Errorf("docker's --%s %s: devenv reads TLS material as DOCKER_CERT_PATH gives it, ca.pem, cert.pem and key.pem in one directory; "+
			"put the files there and set DOCKER_CERT_PATH (or use a docker context with --context)", flag, path)
	}
	return d, nil
}
