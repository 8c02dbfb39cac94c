package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusAsCompose is the layout comparison (TestComposeLayoutsAsCompose)
// for the corpus of real public projects (testdata/corpus, see
// testdata/corpus/SOURCES.md), each laid out as its repository lays it,
// with one cases.txt line per devenv.yaml placement. Besides the record
// (testdata/corpus/<name>.diff) it logs the corpus's score: of the cases
// Compose loads, how many devenv loads, and of the keys compared, how many
// are as Compose's. The bar is every load and 99% of the keys.
func TestCorpusAsCompose(t *testing.T) {
	compareCorpus(t, "corpus")
}

// TestHeldOutCorpusAsCompose is the same for the held-out part of the
// corpus (testdata/heldout): projects drawn before any comparison ran and
// kept out of the rule-writing, to check the rules on projects they were
// not written for.
func TestHeldOutCorpusAsCompose(t *testing.T) {
	compareCorpus(t, "heldout")
}

func compareCorpus(t *testing.T, corpus string) {
	cases, err := filepath.Glob(filepath.Join("testdata", corpus, "*", "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no projects in testdata/%s", corpus)
	}
	var total corpusScore
	for _, casesFile := range cases {
		root, err := filepath.Abs(filepath.Dir(casesFile))
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(root)
		t.Run(name, func(t *testing.T) {
			out, s := compareLayout(t, root, casesFile, "devenv-"+name)
			total.add(s)
			golden(t, filepath.Join(corpus, name+".diff"), []byte(out))
		})
	}
	line := fmt.Sprintf("%s: %d projects, %d cases: devenv loads %d of the %d Compose loads; %d of %d keys as Compose (%.2f%%)",
		corpus, len(cases), total.cases, total.loads, total.cases, total.equal, total.keys, total.percent())
	t.Log(line)
	if total.loads < total.cases || total.percent() < 99 {
		t.Errorf("below the bar (every load, 99%% of keys): %s", line)
	}
}

// corpusScore adds up the cases' scores.
type corpusScore struct {
	cases, loads, keys, equal int
}

func (c *corpusScore) add(s corpusScore) {
	c.cases += s.cases
	c.loads += s.loads
	c.keys += s.keys
	c.equal += s.equal
}

func (c corpusScore) percent() float64 {
	if c.keys == 0 {
		return 0
	}
	return 100 * float64(c.equal) / float64(c.keys)
}

// compareLayout compares every case of one cases.txt; a case devenv does
// not load counts every key of Compose's services as different.
func compareLayout(t *testing.T, root, casesFile, project string) (string, corpusScore) {
	t.Helper()
	data, err := os.ReadFile(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var total corpusScore
	for _, line := range strings.Split(string(data), "\n") {
		t.Setenv("COMPOSE_PROFILES", "")                        // restored after the test
		if err := os.Unsetenv("COMPOSE_PROFILES"); err != nil { // set only where the case sets it
			t.Fatal(err)
		}
		fields := strings.Fields(line)
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		dir := filepath.Join(root, fields[0])
		files := caseFiles(t, fields[1:])
		ref, err := loadAsCompose(t, dir, files, project)
		if err != nil {
			t.Fatalf("compose refuses %s: %v", line, err)
		}
		text, s := compareScored(t, root, dir, files, project, ref)
		if !s.loaded {
			for _, svc := range ref.Services {
				s.keys += len(asMap(t, svc))
			}
		}
		total.add(corpusScore{cases: 1, loads: boolInt(s.loaded), keys: s.keys, equal: s.equal})
		out = append(out, "## "+line+"\n"+text)
	}
	return strings.Join(out, "\n"), total
}

// caseFiles are a case's compose files; a field NAME=VALUE sets that
// variable of the environment for the case (COMPOSE_PROFILES, for a file
// whose services are all under profiles), for Compose and devenv alike.
func caseFiles(t *testing.T, fields []string) []string {
	t.Helper()
	var files []string
	for _, f := range fields {
		if k, v, ok := strings.Cut(f, "="); ok {
			t.Setenv(k, v)
			continue
		}
		files = append(files, f)
	}
	return files
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
