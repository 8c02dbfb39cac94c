package lazy

import "testing"

func TestRegexpCompilesOnceOnFirstUse(t *testing.T) {
	re := Regexp(`^a+$`)
	first := re()
	if !first.MatchString("aaa") || first.MatchString("b") {
		t.Fatalf("%v matches wrongly", first)
	}
	if re() != first {
		t.Error("second call compiled again")
	}
}

func TestRegexpInvalidPanicsOnUseNotBefore(t *testing.T) {
	re := Regexp(`(`) // must not panic here
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression did not panic on first use")
		}
	}()
	re()
}
