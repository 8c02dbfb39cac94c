package sparkconf

import (
	"fmt"
)

const (
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// sparkSize writes bytes as Spark reads sizes: whole GiB as "Ng", else whole MiB as "Nm".
func sparkSize(b int64) string {
	if b%gib == 0 {
		return fmt.Sprintf("%dg", b/gib)
	}
	return fmt.Sprintf("%dm", b/mib)
}

// roundDown rounds b down to whole GiB from 4 GiB up, else to whole MiB.
func roundDown(b int64) int64 {
	if b >= 4*gib {
		return b / gib * gib
	}
	return b / mib * mib
}

// humanBytes writes b for people.
func humanBytes(b int64) string {
	if b >= gib && b%gib == 0 {
		return fmt.Sprintf("%d GiB", b/gib)
	}
	return fmt.Sprintf("%d MiB", b/mib)
}
