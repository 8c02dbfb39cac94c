package pipreq

import (
	"strings"
	"testing"
)

// TestProblem: every way pip's requirements format lets a line choose
// where files come from is refused; specifiers, markers, hashes and
// binary choices pass. Examples after pip's "Requirements File Format"
// and "Requirement Specifiers" documentation.
func TestProblem(t *testing.T) {
	refused := []string{
		"-i https://evil.example/simple",
		"-ihttps://evil.example/simple",
		"--index-url https://evil.example/simple",
		"--index-url=https://evil.example/simple",
		"--extra-index-url https://evil.example/simple",
		"-f https://evil.example/wheels/",
		"--find-links=/tmp/wheels",
		"--trusted-host evil.example",
		"--no-index",
		"-r other.txt",
		"--requirement=other.txt",
		"-c constraints.txt",
		"-e git+https://github.com/x/y.git#egg=y",
		"--editable ./src",
		"pandas --index-url https://evil.example/simple",
		"pandas==2.2 --extra-index-url=https://evil.example/simple",
		"https://evil.example/pandas-2.2-py3-none-any.whl",
		"git+ssh://git@github.com/x/y.git",
		"git+https://github.com/x/y.git@v1#egg=y",
		"file:///tmp/pandas.whl",
		"file:pandas.whl",
		"pandas @ https://evil.example/pandas.whl",
		"pandas@https://evil.example/pandas.whl",
		"pandas @ file:///tmp/pandas.whl",
		"./downloads/numpy-1.9.2-cp34-none-win32.whl",
		"../pkg",
		"/abs/pkg.tar.gz",
		"dist/pandas-2.2.tar.gz",
		"pandas-2.2-py3-none-any.whl",
		"~/wheels/x.whl",
		`C:\wheels\x.whl`,
		"${PIP_EXTRA}",
		"pandas==${VERSION}",
	}
	for _, r := range refused {
		if Problem(r) == "" {
			t.Errorf("Problem(%q) = \"\", want it refused", r)
		}
	}
	allowed := []string{
		"pandas",
		"pandas>=2.2,<3",
		"requests[security,socks]==2.31.0",
		"pywin32 >=1.0 ; sys_platform == 'win32'",
		`numpy; python_version < "3.12"`,
		"pandas==2.2.2 --hash=sha256:0123456789abcdef",
		"--require-hashes",
		"--pre",
		"--only-binary=:all:",
		"--prefer-binary",
		"torch==2.3.0+cu121",
		"",
	}
	for _, a := range allowed {
		if p := Problem(a); p != "" {
			t.Errorf("Problem(%q) = %q, want it allowed", a, p)
		}
	}
}

// TestCheckReadsTheFileAsPipDoes: comments, continuation lines and line
// numbers follow pip's format.
func TestCheckReadsTheFileAsPipDoes(t *testing.T) {
	data := "# pinned\npandas==2.2 \\\n    --hash=sha256:00\nnumpy  # a comment with -i https://x\n\n--extra-index-url \\\n  https://evil.example/simple\nscipy#not-a-comment-start\n"
	got := Check(data)
	if len(got) != 1 || !strings.HasPrefix(got[0], "6: ") || !strings.Contains(got[0], "--extra-index-url") {
		t.Fatalf("Check = %q, want one problem at line 6 naming --extra-index-url", got)
	}
}
