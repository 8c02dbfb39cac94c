package sparkconf

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// nastyConf holds keys and values that java.util.Properties reads as
// something else unless they are escaped.
var nastyConf = map[string]string{
	"spark.backslash":               `C:\temp\new\x`,
	"spark.double.backslash":        `\\server\share`,
	"spark.trailing.bs":             `ends with\`,
	"spark.leading.equals":          "=starts with equals",
	"spark.leading.colon":           ":starts with colon",
	"spark.separators":              "a=b:c = d : e",
	"spark.hash":                    "#not a comment",
	"spark.bang":                    "!not a comment either",
	"spark.inner.spaces":            "a  b\t\tc",
	"spark.form.feed":               "a\fb",
	"spark.newline":                 "line1\nline2",
	"spark.crlf":                    "one\r\ntwo\rthree",
	"spark.continuation.like":       "a\\\nb",
	"spark.latin1":                  "café naïve",
	"spark.cjk":                     "日本語",
	"spark.emoji":                   "party 🎉",
	"spark.literal.escape":          `\u0041 \t \n`,
	"spark.nul":                     "a\x00b",
	"spark.empty":                   "",
	"spark.driver.extraJavaOptions": `-Dlog4j.configuration=file:/opt/log4j.properties -Dx="a b"`,
	"spark.key with spaces":         "v1",
	"spark.key=equals":              "v2",
	"spark.key:colon":               "v3",
	"#spark.hash.key":               "v4",
	"!spark.bang.key":               "v5",
	"spark.tab\tkey":                "v6",
	"spark.ünïcode.key":             "v7",
	"spark.key\\backslash":          "v8",
	"spark.key.newline\nx":          "v9",
}

// nastyInput is a conf with every nasty key and value from devenv.yaml,
// and a mirrored layer whose file name would start a line of its own.
func nastyInput() Input {
	in := input(laptop, "26.06.0")
	in.User = Layer{Source: "devenv.yaml", Conf: nastyConf}
	in.Mirrored = []Layer{{
		Source: "prod/x.json\nspark.injected true\r\nspark.injected2 true",
		Conf:   map[string]string{"spark.sql.adaptive.enabled": "true", "spark.executor.memory": "1g\nspark.evil x"},
	}}
	return in
}

func TestRenderedConfReadsBackAsGenerated(t *testing.T) {
	c, err := Generate(nastyInput())
	if err != nil {
		t.Fatal(err)
	}
	rendered := c.Render()
	got, err := PropertiesMap(rendered)
	if err != nil {
		t.Fatalf("reading the rendered conf back: %v\n%s", err, rendered)
	}
	want := c.Map()
	for k, v := range nastyConf {
		if want[k] != v {
			t.Errorf("Generate changed devenv.yaml's %q: %q, want %q", k, want[k], v)
		}
	}
	compareProps(t, got, want, rendered)
	for _, line := range strings.Split(string(rendered), "\n") {
		if line != "" && strings.IndexFunc(line, func(r rune) bool { return r > 0x7e || (r < 0x20 && r != '\t') }) >= 0 {
			t.Errorf("line is not plain ASCII: %q", line)
		}
	}
}

func compareProps(t *testing.T, got, want map[string]string, rendered []byte) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[k]; !ok || g != want[k] {
			t.Errorf("key %q read back as %q (present %v), want %q", k, g, ok, want[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			t.Errorf("the conf holds a key nobody set: %q = %q", k, got[k])
		}
	}
	if t.Failed() {
		t.Logf("rendered:\n%s", rendered)
	}
}

func TestGoldenConfsReadBack(t *testing.T) {
	for name, in := range goldenCases() {
		c, err := Generate(in)
		if err != nil {
			t.Fatal(name, err)
		}
		got, err := PropertiesMap(c.Render())
		if err != nil {
			t.Fatal(name, err)
		}
		compareProps(t, got, c.Map(), c.Render())
	}
}

// readerCases are properties files whose reading exercises each rule of
// Properties.load; the expected maps follow its documentation, and
// TestReaderAgreesWithJava checks them against the JDK itself.
var readerCases = []struct {
	name string
	text string
	want map[string]string
}{
	{"separators", "a=1\nb:2\nc 3\nd\t4\ne\f5\nf = 6\ng : 7\nh  =  8\ni\n", map[string]string{"a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "f": "6", "g": "7", "h": "8", "i": ""}},
	{"second separator is value", "a==b\nc::d\ne =:f\n", map[string]string{"a": "=b", "c": ":d", "e": ":f"}},
	{"comments", "# c\n! c\n  # indented\nk=v # not a comment\n#k2=v2\n", map[string]string{"k": "v # not a comment"}},
	{"comment ends at CR", "# c\rk=v\r", map[string]string{"k": "v"}},
	{"comment is not continued", "# c \\\nk=v\n", map[string]string{"k": "v"}},
	{"continuation", "k=a\\\n    b\\\n\tc\n", map[string]string{"k": "abc"}},
	{"continuation CRLF", "k=a\\\r\n  b\r\nz=1\r\n", map[string]string{"k": "ab", "z": "1"}},
	{"continuation CR", "k=a\\\r  b\rz=1", map[string]string{"k": "ab", "z": "1"}},
	{"even backslashes", "k=a\\\\\nz=1\n", map[string]string{"k": `a\`, "z": "1"}},
	{"continuation then blank line", "k=a\\\n\nz=1\n", map[string]string{"k": "a", "z": "1"}},
	{"continued line looks like a comment", "k=a\\\n  #b\n", map[string]string{"k": "a#b"}},
	{"backslash at end of input", "k=a\\", map[string]string{"k": "a"}},
	{"lone backslash line at end", "k=v\n\\\n", map[string]string{"k": "v", "": ""}},
	{"lone backslash then blanks at end", "k=v\n\\\n   ", map[string]string{"k": "v"}},
	{"continuation then only blanks at end", "k=a\\\n  \t", map[string]string{"k": "a"}},
	{"escapes", `k=\t\n\r\f\u0041\u00e9\q\=\:\#\!\ x` + "\n", map[string]string{"k": "\t\n\r\fAéq=:#! x"}},
	{"escaped key", `a\ b\=c\:d=v` + "\n", map[string]string{"a b=c:d": "v"}},
	{"surrogates", `k=\uD83C\uDF89` + "\n", map[string]string{"k": "🎉"}},
	{"duplicate keeps last", "k=1\nk=2\n", map[string]string{"k": "2"}},
	{"leading whitespace kept in escapes", `k=\ \ two` + "\n", map[string]string{"k": "  two"}},
	{"trailing whitespace kept", "k=v  \t\n", map[string]string{"k": "v  \t"}},
	{"utf8 raw", "k=café\n", map[string]string{"k": "café"}},
	{"no final newline", "k=v", map[string]string{"k": "v"}},
	{"blank lines", "\n\n  \t\n\f\nk=v\n\n", map[string]string{"k": "v"}},
}

func TestParseProperties(t *testing.T) {
	for _, tc := range readerCases {
		got, err := PropertiesMap([]byte(tc.text))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !maps.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	if _, err := PropertiesMap([]byte(`k=\u00zz`)); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("a malformed \\u escape: %v, want an error as Java throws", err)
	}
}

func TestValueProblem(t *testing.T) {
	for v, bad := range map[string]bool{"": false, "x": false, "a b": false, " a": true, "a ": true, "a\n": true, "\ta": true, "a\x00": true, "a\nb": false} {
		if got := ValueProblem(v) != ""; got != bad {
			t.Errorf("ValueProblem(%q) = %v, want %v", v, got, bad)
		}
	}
}

// propsDump loads each file named on its command line as Spark does
// (Properties.load through a UTF-8 reader) and prints every key and value
// as hex UTF-16 code units, so nothing is lost in printing.
const propsDump = `import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

public class PropsDump {
  public static void main(String[] args) throws Exception {
    for (String f : args) {
      Properties p = new Properties();
      try (Reader r = new InputStreamReader(new FileInputStream(f), StandardCharsets.UTF_8)) {
        p.load(r);
      }
      System.out.println("file " + f);
      for (String k : new TreeSet<>(p.stringPropertyNames())) {
        System.out.println(hex(k) + " " + hex(p.getProperty(k)));
      }
    }
  }

  static String hex(String s) {
    StringBuilder b = new StringBuilder("x");
    for (char c : s.toCharArray()) b.append(String.format("%04x", (int) c));
    return b.toString();
  }
}
`

// javaProperties compiles propsDump and loads files with the JDK, or
// skips the test saying why.
func javaProperties(t *testing.T, files []string) map[string]map[string]string {
	t.Helper()
	javac, err1 := exec.LookPath("javac")
	java, err2 := exec.LookPath("java")
	if err1 != nil || err2 != nil {
		t.Skipf("the JDK is not installed (javac: %v, java: %v): the reference java.util.Properties cannot be run", err1, err2)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "PropsDump.java")
	if err := os.WriteFile(src, []byte(propsDump), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(javac, "-d", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	out, err := exec.Command(java, append([]string{"-cp", dir, "PropsDump"}, files...)...).Output()
	if err != nil {
		t.Fatalf("java PropsDump: %v", err)
	}
	return parseDump(t, out)
}

func parseDump(t *testing.T, out []byte) map[string]map[string]string {
	t.Helper()
	res := map[string]map[string]string{}
	var cur map[string]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if f, ok := strings.CutPrefix(line, "file "); ok {
			cur = map[string]string{}
			res[f] = cur
			continue
		}
		k, v, _ := strings.Cut(line, " ")
		cur[unhex(t, k)] = unhex(t, v)
	}
	return res
}

func unhex(t *testing.T, s string) string {
	b, err := hex.DecodeString(strings.TrimPrefix(s, "x"))
	if err != nil {
		t.Fatalf("java output %q: %v", s, err)
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return string(utf16.Decode(units))
}

// TestReaderAgreesWithJava loads the reader's cases and generated confs
// (the nasty one and every golden case) with the JDK's
// java.util.Properties and compares: the generated confs with what
// Generate decided, the reader's cases with ParseProperties.
func TestReaderAgreesWithJava(t *testing.T) {
	dir := t.TempDir()
	want := map[string]map[string]string{}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var files []string
	for i, tc := range readerCases {
		p := write(fmt.Sprintf("case%02d.properties", i), []byte(tc.text))
		got, err := PropertiesMap([]byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		want[p] = got
		files = append(files, p)
	}
	confs := goldenCases()
	confs["nasty"] = nastyInput()
	for name, in := range confs {
		c, err := Generate(in)
		if err != nil {
			t.Fatal(name, err)
		}
		p := write(name+".conf", c.Render())
		want[p] = c.Map()
		files = append(files, p)
	}
	java := javaProperties(t, files)
	for _, f := range files {
		got, ok := java[f]
		if !ok {
			t.Errorf("java printed nothing for %s", f)
			continue
		}
		data, _ := os.ReadFile(f)
		t.Run(filepath.Base(f), func(t *testing.T) { compareProps(t, got, want[f], data) })
	}
}
