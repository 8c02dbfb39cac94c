package sdk

import (
	"runtime/debug"
	"strings"
	"sync"
)

// composeModule is the module of the Compose SDK devenv runs projects with.
const composeModule = "github.com/docker/compose/v5"

// Version is the Compose SDK's version as Compose writes it in its
// com.docker.compose.version labels ("5.6.0": the module's version
// without its "v", pre-release and build parts), read from this program's
// build record; "" when it holds none. The SDK's own value is its CLI's
// version, which a program embedding the SDK does not set (it is empty).
var Version = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, m := range info.Deps {
		if m.Path != composeModule {
			continue
		}
		if m.Replace != nil && m.Replace.Version != "" {
			m = m.Replace
		}
		return versionCore(m.Version)
	}
	return ""
})

// versionCore is a module version's major.minor.patch: "v5.6.1-0.2026..." is "5.6.1".
func versionCore(v string) string {
	v = strings.TrimPrefix(v, "v")
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		v = v[:i]
	}
	return v
}
