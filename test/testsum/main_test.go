package main

import (
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	const pass = `{"Action":"run","Package":"p/a","Test":"TestOK"}
{"Action":"output","Package":"p/a","Test":"TestOK","Output":"quiet when it passes\n"}
{"Action":"pass","Package":"p/a","Test":"TestOK","Elapsed":1.5}
{"Action":"output","Package":"p/a","Output":"PASS\n"}
{"Action":"output","Package":"p/a","Output":"ok  \tp/a\t1.6s\n"}
{"Action":"pass","Package":"p/a","Elapsed":1.6}
`
	const fail = `{"Action":"output","Package":"p/b","Test":"TestBad","Output":"    b_test.go:9: it broke\n"}
{"Action":"output","Package":"p/b","Test":"TestBad","Output":"--- FAIL: TestBad (2.00s)\n"}
{"Action":"fail","Package":"p/b","Test":"TestBad","Elapsed":2}
{"Action":"output","Package":"p/b","Output":"FAIL\tp/b\t2.1s\n"}
{"Action":"fail","Package":"p/b","Elapsed":2.1}
`
	const alone = `{"Action":"run","Package":"p/d","Test":"TestAlone"}
{"Action":"pass","Package":"p/d","Test":"TestAlone","Elapsed":31}
{"Action":"run","Package":"p/d","Test":"TestSide"}
{"Action":"pause","Package":"p/d","Test":"TestSide"}
{"Action":"cont","Package":"p/d","Test":"TestSide"}
{"Action":"pass","Package":"p/d","Test":"TestSide","Elapsed":5}
{"Action":"pass","Package":"p/d","Elapsed":36}
`
	const aloneShort = `{"Action":"run","Package":"p/e","Test":"TestQuick"}
{"Action":"pass","Package":"p/e","Test":"TestQuick","Elapsed":2}
{"Action":"pass","Package":"p/e","Elapsed":2}
`
	tests := []struct {
		name, in string
		code     int
		want     []string
		not      []string
	}{
		{"pass", pass, 0, []string{"ok  \tp/a\t1.6s", "1.6s  pass p/a", "1.5s  pass p/a TestOK"}, []string{"quiet when it passes", "PASS\n"}},
		{"a failure shows its output and fails", pass + fail, 1, []string{"it broke", "--- FAIL: TestBad", "FAIL\tp/b\t2.1s", "2.1s  fail p/b"}, nil},
		{"a build error passes through", "# p/c\nc.go:1:1: syntax error\n" + `{"Action":"fail","Package":"p/c","Elapsed":0}` + "\n", 1, []string{"c.go:1:1: syntax error"}, nil},
		{"tests that ran alone are summed", alone, 0, []string{"p/d: 1 test(s) ran alone (no t.Parallel), 31s in sum; the slowest: TestAlone"}, []string{"TestAlone, TestSide"}},
		{"a short sum is not worth a line", aloneShort, 0, []string{"2s  pass p/e TestQuick"}, []string{"ran alone"}},
		{"no package at all fails", "", 1, []string{"reported no package"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			if code := run(strings.NewReader(tt.in), &out, 10); code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out.String(), n) {
					t.Errorf("output holds %q:\n%s", n, out.String())
				}
			}
		})
	}
}
