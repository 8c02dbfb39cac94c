package view

import (
	"errors"
	"fmt"
	"testing"

	"github.com/hashicorp/go-multierror"
)

func TestErrorTextListsProblemsOnePerLine(t *testing.T) {
	one := multierror.Append(nil, errors.New("service \"a\": boom"))
	if got := ErrorText(one); got != `service "a": boom` {
		t.Errorf("one problem: %q", got)
	}
	two := multierror.Append(nil, errors.New("first"), errors.New("second\nwith detail"))
	if got := ErrorText(two); got != "2 problems:\n  - first\n  - second\n    with detail" {
		t.Errorf("two problems: %q", got)
	}
	wrapped := fmt.Errorf("context: %w", two)
	if got := ErrorText(wrapped); got != wrapped.Error() {
		t.Errorf("a wrapped list keeps its own text: %q", got)
	}
}
