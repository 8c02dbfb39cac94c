package mirror

import (
	"strings"

	"github.com/devenv-dev/devenv/internal/lazy"
)

// Job scripts build the JSON they pass to a cloud CLI with a heredoc read
// by a command substitution: JOB_DRIVER=$(cat <<EOF ... EOF\n), or
// --job-driver "$(cat <<EOF ... EOF\n)". The shell substitutes the heredoc's
// text (its variables expanded unless its word is quoted), so the reader
// does too, before it splits the script into lines.

var catHeredocRe = lazy.Regexp(`\$\(cat <<(-?)[ \t]*(['"]?)([A-Za-z_][A-Za-z0-9_]*)(['"]?)[ \t]*\n((?s:.*?))\n[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*\n\)`)

// inlineCatHeredocs replaces each $(cat <<WORD ... WORD\n) of text with
// the heredoc's text as a quoted word (or, inside double quotes, as their
// text), keeping the line count: a line number after it still names the
// line the script has.
func inlineCatHeredocs(text string) string {
	if !strings.Contains(text, "$(cat <<") {
		return text
	}
	var b strings.Builder
	rest := text
	for {
		m := catHeredocRe().FindStringSubmatchIndex(rest)
		if m == nil {
			b.WriteString(rest)
			return b.String()
		}
		word, end := rest[m[6]:m[7]], rest[m[12]:m[13]]
		if word != end || rest[m[4]:m[5]] != rest[m[8]:m[9]] {
			// not its terminator (another heredoc closes here): leave it as written
			b.WriteString(rest[:m[1]])
			rest = rest[m[1]:]
			continue
		}
		body := rest[m[10]:m[11]]
		if rest[m[2]:m[3]] == "-" {
			body = trimTabs(body)
		}
		quoted := rest[m[4]:m[5]] != ""
		line := rest[:m[0]]
		if i := strings.LastIndexByte(line, '\n'); i >= 0 {
			line = line[i+1:]
		}
		lines := strings.Repeat("\n", 3) // the $(cat line's end, WORD's line and ")"'s
		b.WriteString(rest[:m[0]])
		if openQuote(line) == '"' {
			b.WriteString(doubleQuoted(body, quoted) + lines)
		} else {
			b.WriteString(`"` + doubleQuoted(body, quoted) + lines + `"`)
		}
		rest = rest[m[1]:]
	}
}

// doubleQuoted is s as the text of a double-quoted word; noExpand keeps
// its $ from expanding (a heredoc whose word is quoted).
func doubleQuoted(s string, noExpand bool) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`")
	s = r.Replace(s)
	if noExpand {
		s = strings.ReplaceAll(s, "$", `\$`)
	}
	return s
}

func trimTabs(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "\n")
}
