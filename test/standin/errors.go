package standin

import "fmt"

// errorf is fmt.Errorf; a short name keeps the long, actionable messages readable.
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
