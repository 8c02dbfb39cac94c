package view

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/go-multierror"
)

// ErrorText is an error's text for people: lists of problems (go-multierror's,
// when their maker chose no format of its own) read one problem a line
// rather than as the library's "N errors occurred" with tab-indented bullets.
func ErrorText(err error) string {
	var me *multierror.Error
	if !errors.As(err, &me) || me.ErrorFormat != nil || err != error(me) { //nolint:errorlint // identity: only a bare multierror is listed item by item
		return err.Error()
	}
	items := me.WrappedErrors()
	if len(items) == 1 {
		return ErrorText(items[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d problems:", len(items))
	for _, e := range items {
		b.WriteString("\n  - " + strings.ReplaceAll(ErrorText(e), "\n", "\n    "))
	}
	return b.String()
}
