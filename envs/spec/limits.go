package spec

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/devenv-dev/devenv/internal/lazy"
	"github.com/devenv-dev/devenv/internal/sparkconf"
	"go.yaml.in/yaml/v3"
)

// Values the Docker engine (or Spark) would refuse, or silently read as
// something else, are refused here, when devenv.yaml is loaded, with the
// line that says them: an engine refusal at create time would come after
// a build and name no line.

// MinMemoryBytes is the smallest memory limit the engine accepts (the
// daemon's linuxMinMemory: "Minimum memory limit allowed is 6MB").
const MinMemoryBytes = 6 << 20

// MinHealthDuration is the shortest healthcheck interval, timeout or
// start period the engine accepts when it is not 0 (MinimumDuration).
const MinHealthDuration = time.Millisecond

// MemoryBytes reads a memory size as devenv.yaml writes it ("16g", "512m",
// "1.5g", "1048576", a trailing b allowed; units are powers of 1024),
// refusing what does not fit an int64 number of bytes.
func MemoryBytes(s string) (int64, error) {
	if !memoryRE().MatchString(s) {
		return 0, fmt.Errorf("%q is not a size such as 16g or 512m", s)
	}
	num := strings.TrimSuffix(strings.ToLower(s), "b")
	mult := int64(1)
	if i := strings.IndexAny(num, "kmgt"); i >= 0 {
		mult = int64(1) << (10 * (1 + strings.IndexByte("kmgt", num[i])))
		num = num[:i]
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, fmt.Errorf("%q is not a size such as 16g or 512m", s)
	}
	r.Mul(r, new(big.Rat).SetInt64(mult))
	n := new(big.Int).Quo(r.Num(), r.Denom())
	if !n.IsInt64() {
		return 0, fmt.Errorf("%s is more bytes than fit in a signed 64-bit number (at most %d)", s, int64(math.MaxInt64))
	}
	return n.Int64(), nil
}

// checkMemory says what is wrong with a memory limit, or "".
func checkMemory(s string) (msg, hint string) {
	n, err := MemoryBytes(s)
	switch {
	case err != nil:
		return "memory " + err.Error(), `write a size such as "16g" or "512m"`
	case n < MinMemoryBytes:
		return fmt.Sprintf("memory %s is %d bytes, below the 6 MiB (6291456 bytes) the Docker engine accepts", s, n), `give at least "6m", or remove memory: for no limit`
	}
	return "", ""
}

// checkHealthDuration says what is wrong with a healthcheck duration, or "".
func checkHealthDuration(key, v string) (msg, hint string) {
	dur, err := time.ParseDuration(v)
	switch {
	case err != nil || dur < 0:
		return fmt.Sprintf("healthcheck.%s %q is not a duration", key, v), `write a duration such as "10s" or "1m30s"`
	case dur != 0 && dur < MinHealthDuration:
		return fmt.Sprintf("healthcheck.%s %s is shorter than the 1ms the Docker engine accepts", key, v), `write at least "1ms" (or 0 for the default)`
	}
	return "", ""
}

// mavenPartRE is a Maven group, artifact, version or classifier: no
// option-like leading '-', no path separators or "..", nothing a URL or
// a file name would read differently.
var mavenPartRE = lazy.Regexp(`^[A-Za-z0-9_][A-Za-z0-9_.+-]*$`)

// jarProblem says why s is not a usable Maven coordinate, or "".
func jarProblem(s string) string {
	if !mavenCoordRE().MatchString(s) {
		return "is not a Maven coordinate"
	}
	names := []string{"group", "artifact", "version", "classifier"}
	for i, part := range strings.Split(s, ":") {
		switch {
		case strings.HasPrefix(part, "-"):
			return fmt.Sprintf("has its %s id starting with '-', which tools would read as an option", names[i])
		case strings.Contains(part, ".."), !mavenPartRE().MatchString(part):
			return fmt.Sprintf("has its %s id %q with characters Maven ids do not hold (letters, digits, '_', '.', '-', '+'; no '..')", names[i], part)
		}
	}
	return ""
}

// checkConfValue reports a conf: value Spark would not read back as
// written from spark-defaults.conf.
func (d *decoder) checkConfValue(k, v *yaml.Node) {
	if p := sparkconf.ValueProblem(v.Value); p != "" {
		d.errAt(v, "remove the surrounding whitespace; quote the value if it holds a line break", "conf %s %q cannot be passed to Spark: %s", k.Value, v.Value, p)
	}
}

// coreTags are the YAML tags devenv.yaml may write explicitly; the others
// (!!binary, !!timestamp, !!set, !custom...) would be read as plain text
// here and mean something else to the next tool.
var coreTags = map[string]bool{"!!str": true, "!!int": true, "!!float": true, "!!bool": true, "!!null": true, "!!map": true, "!!seq": true}

// unsupportedTags reports every explicitly tagged node whose tag is not a
// core one, then reads it as untagged so that each problem is said once.
// Values of x- keys are left to the tools they are for.
func (d *decoder) unsupportedTags(n *yaml.Node) {
	if n.Style&yaml.TaggedStyle != 0 && !coreTags[n.Tag] {
		d.errAt(n, "remove the tag: devenv.yaml values are plain strings, numbers, booleans, lists and maps", "YAML tag %s is not supported here", n.Tag)
		n.Style &^= yaml.TaggedStyle
		switch n.Kind {
		case yaml.MappingNode:
			n.Tag = "!!map"
		case yaml.SequenceNode:
			n.Tag = "!!seq"
		default:
			n.Tag = "!!str"
		}
	}
	for i := 0; i < len(n.Content); i++ {
		c := n.Content[i]
		if n.Kind == yaml.MappingNode && i%2 == 0 && strings.HasPrefix(c.Value, "x-") {
			i++ // skip the extension's value
			continue
		}
		d.unsupportedTags(c)
	}
}

// confMap reads a conf: map (as strMap) and checks each value.
func (d *decoder) confMap(f field) map[string]string {
	out := d.strMap(f, "conf", nil)
	for _, p := range d.quietMapping(f.val) {
		if v := resolve(p.val); v.Kind == yaml.ScalarNode {
			d.checkConfValue(p.key, v)
		}
	}
	return out
}

// quietMapping returns a map node's key and value pairs without reporting
// anything (strMap already has).
func (d *decoder) quietMapping(n *yaml.Node) []field {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil
	}
	var out []field
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, field{name: n.Content[i].Value, key: n.Content[i], val: n.Content[i+1]})
	}
	return out
}
