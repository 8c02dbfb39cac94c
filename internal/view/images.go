package view

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/devenv-dev/devenv/internal/app"
)

// Images prints each image's size, then its layers that add bytes.
func Images(w io.Writer, imgs []app.ImageReport) {
	if len(imgs) == 0 {
		fmt.Fprintln(w, "no images built for this project: run devenv build")
		return
	}
	for i, im := range imgs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  %s  %s\n", im.Service, im.Tag, Bytes(im.Size))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		for _, l := range im.Layers {
			if l.Size == 0 {
				continue
			}
			by := strings.Join(strings.Fields(l.CreatedBy), " ")
			if by == "" {
				by = "(base image)"
			}
			if len(by) > 100 {
				by = by[:97] + "..."
			}
			fmt.Fprintf(tw, "  %s\t  %s\n", Bytes(l.Size), by)
		}
		tw.Flush()
	}
}

// Bytes is n in the largest unit of 1000 that keeps it at least 1.
func Bytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, u := float64(n), 0
	for v >= unit && u < 4 {
		v /= unit
		u++
	}
	return fmt.Sprintf("%.1f %cB", v, " kMGT"[u])
}
