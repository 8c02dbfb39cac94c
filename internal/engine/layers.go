package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ImageDetail is an image's size and its layers, oldest first.
type ImageDetail struct {
	ID     string  `json:"id"`
	Size   int64   `json:"size"` // bytes of all its layers, the base's included
	Layers []Layer `json:"layers"`
}

// Layer is one step of an image's history.
type Layer struct {
	CreatedBy string    `json:"created_by"` // the instruction that made it
	Size      int64     `json:"size"`       // bytes it adds; 0 for a metadata step
	Created   time.Time `json:"created"`
}

// LayerReader is implemented by engines that can describe an image's
// layers: the Docker adapter. It is not part of Engine, which the
// lifecycle needs, so that fakes need not implement it.
type LayerReader interface {
	ImageDetail(ctx context.Context, ref string) (ImageDetail, error)
}

// ImageDetail inspects ref and reads its history.
func (d *docker) ImageDetail(ctx context.Context, ref string) (ImageDetail, error) {
	op := fmt.Sprintf("describe image %q", ref)
	img, err := d.cli.ImageInspect(ctx, ref)
	if err != nil {
		return ImageDetail{}, d.wrap(op, err)
	}
	hist, err := d.cli.ImageHistory(ctx, ref)
	if err != nil {
		return ImageDetail{}, d.wrap(op, err)
	}
	out := ImageDetail{ID: img.ID, Size: img.Size}
	for _, h := range slices.Backward(hist) {
		out.Layers = append(out.Layers, Layer{CreatedBy: instruction(h.CreatedBy), Size: h.Size, Created: time.Unix(h.Created, 0).UTC()})
	}
	return out, nil
}

// instruction is a history entry's command as the Dockerfile wrote it: the
// classic builder records RUN as "[|N ARG=v ...] /bin/sh -c cmd" and other
// steps as "/bin/sh -c #(nop) STEP".
func instruction(createdBy string) string {
	if _, after, ok := strings.Cut(createdBy, "/bin/sh -c "); ok && (strings.HasPrefix(createdBy, "/bin/sh") || strings.HasPrefix(createdBy, "|")) {
		if step, nop := strings.CutPrefix(after, "#(nop) "); nop {
			return strings.TrimSpace(step)
		}
		return "RUN " + strings.TrimSpace(after)
	}
	return strings.TrimSpace(createdBy)
}
