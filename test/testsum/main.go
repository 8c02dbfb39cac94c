// Command testsum reads `go test -json` on stdin and prints what `go test`
// prints without -v (each package's closing line, and the output of the
// tests that failed), then how long each package and the slowest tests
// took, and how long the tests that ran alone (no t.Parallel: every
// parallel test of their package waits for them) took in sum. It exits 1 when a package failed, did not build, or the stream held
// no package result, so `go test -json ... | testsum` fails as go test does.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// event is one line of test2json output.
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

type result struct {
	name    string // package, or package and test
	elapsed float64
	action  string
	sub     bool // a subtest
	alone   bool // a top-level test that never paused: not t.Parallel
}

func main() {
	os.Exit(run(os.Stdin, os.Stdout, 10))
}

func run(in io.Reader, out io.Writer, slowest int) int {
	var (
		buffered = map[string][]string{} // package/test -> output so far
		packages []result
		tests    []result
		failed   bool
		paused   = map[string]bool{} // package/test of the tests that called t.Parallel
	)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(out, "%s\n", line) // not test2json: a build error, a panic of go test itself
			continue
		}
		key := e.Package + "/" + e.Test
		switch {
		case e.Action == "pause":
			paused[key] = true
		case e.Action == "output" && e.Test != "":
			buffered[key] = append(buffered[key], e.Output)
		case (e.Action == "output" || e.Action == "build-output") && e.Output != "PASS\n":
			fmt.Fprint(out, e.Output) // the package's own lines: ok/FAIL, build errors
		case e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			if e.Action == "fail" {
				fmt.Fprint(out, strings.Join(buffered[key], ""))
			}
			delete(buffered, key)
			sub := strings.Contains(e.Test, "/")
			tests = append(tests, result{e.Package + " " + e.Test, e.Elapsed, e.Action, sub, !sub && !paused[key]})
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			failed = failed || e.Action == "fail"
			packages = append(packages, result{name: e.Package, elapsed: e.Elapsed, action: e.Action})
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(out, "testsum: reading go test's output: %v\n", err)
		return 1
	}
	summary(out, packages, tests, slowest)
	if failed || len(packages) == 0 {
		return 1
	}
	return 0
}

func summary(out io.Writer, packages, tests []result, slowest int) {
	if len(packages) == 0 {
		fmt.Fprintln(out, "testsum: go test reported no package")
		return
	}
	fmt.Fprintln(out, "\n== time per package")
	sort.SliceStable(packages, func(i, j int) bool { return packages[i].elapsed > packages[j].elapsed })
	for _, p := range packages {
		fmt.Fprintf(out, "%9s  %-4s %s\n", dur(p.elapsed), p.action, p.name)
	}
	var top []result
	for _, t := range tests {
		if !t.sub {
			top = append(top, t)
		}
	}
	sort.SliceStable(top, func(i, j int) bool { return top[i].elapsed > top[j].elapsed })
	alone(out, top)
	if len(top) > slowest {
		top = top[:slowest]
	}
	if len(top) > 0 {
		fmt.Fprintf(out, "== the %d slowest tests\n", len(top))
		for _, t := range top {
			fmt.Fprintf(out, "%9s  %-4s %s\n", dur(t.elapsed), t.action, t.name)
		}
	}
}

// alone prints, per package, how many tests ran alone and their sum, the
// time every parallel test of the package waited, with the slowest three
// (top is sorted slowest first); a package whose sum is under aloneFloor
// is not worth the line.
func alone(out io.Writer, top []result) {
	sums := map[string]float64{}
	names := map[string][]string{}
	var pkgs []string
	for _, t := range top {
		if !t.alone {
			continue
		}
		pkg, test, _ := strings.Cut(t.name, " ")
		if _, ok := sums[pkg]; !ok {
			pkgs = append(pkgs, pkg)
		}
		sums[pkg] += t.elapsed
		names[pkg] = append(names[pkg], test)
	}
	for _, p := range pkgs {
		if sums[p] < aloneFloor {
			continue
		}
		slowest := names[p][:min(3, len(names[p]))]
		fmt.Fprintf(out, "== %s: %d test(s) ran alone (no t.Parallel), %s in sum; the slowest: %s\n", p, len(names[p]), dur(sums[p]), strings.Join(slowest, ", "))
	}
}

// aloneFloor is the sum, in seconds, below which the tests that ran alone
// in a package are not reported.
const aloneFloor = 30

func dur(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(100 * time.Millisecond).String()
}
