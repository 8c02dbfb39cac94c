package release

import (
	"debug/elf"
	"fmt"
	"strconv"
	"strings"
)

// GlibcFloor is the oldest glibc the Linux programs run on: the release
// refuses a binary that needs a newer symbol version, and the README
// states it (a test reads both). glibc 2.34 moved libpthread into libc,
// so a cgo program linked against a newer glibc needs it at least.
const GlibcFloor = "2.34"

// MaxGlibc is the highest GLIBC_x.y symbol version the ELF file at path
// imports ("" for a program that links no glibc), and the symbol needing it.
func MaxGlibc(path string) (version, symbol string, err error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", "", fmt.Errorf("read %s as ELF: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	syms, err := f.ImportedSymbols()
	if err != nil {
		if strings.Contains(err.Error(), "no symbol section") {
			return "", "", nil // a static program
		}
		return "", "", fmt.Errorf("read the dynamic symbols of %s: %w", path, err)
	}
	for _, s := range syms {
		v, ok := strings.CutPrefix(s.Version, "GLIBC_")
		if !ok {
			continue
		}
		if version == "" || CompareVersions(v, version) > 0 {
			version, symbol = v, s.Name
		}
	}
	return version, symbol, nil
}

// CompareVersions compares dotted numeric versions ("2.34" < "2.4" is false).
func CompareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		x, y := part(as, i), part(bs, i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func part(p []string, i int) int {
	if i >= len(p) {
		return 0
	}
	n, _ := strconv.Atoi(p[i])
	return n
}

// CheckGlibc fails when the program at path needs a glibc newer than floor.
func CheckGlibc(path, floor string) error {
	v, sym, err := MaxGlibc(path)
	if err != nil {
		return err
	}
	if v != "" && CompareVersions(v, floor) > 0 {
		return fmt.Errorf("%s needs glibc %s (symbol %s), newer than the floor %s the README promises: "+
			"build the Linux programs against an older glibc", path, v, sym, floor)
	}
	return nil
}
