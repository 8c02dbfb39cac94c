package app

import (
	"context"
	"errors"
	"sort"

	"github.com/devenv-dev/devenv/internal/engine"
	"github.com/devenv-dev/devenv/internal/labels"
)

// ImageReport is one image devenv built for the project: its size and the
// size of each layer, so that weight can be traced to the step that adds it.
type ImageReport struct {
	Service string `json:"service"`
	Tag     string `json:"tag"`
	engine.ImageDetail
}

// Images reports the size and layers of every image built for the project
// that the engine holds (newest first per service).
func (p *Project) Images(ctx context.Context) ([]ImageReport, error) {
	if err := p.connect(ctx); err != nil {
		return nil, err
	}
	lr, ok := p.eng.(engine.LayerReader)
	if !ok {
		return nil, errors.New("this engine cannot describe image layers")
	}
	objs, err := p.eng.List(ctx, engine.Images, map[string]string{labels.Project: p.Spec.Name})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(objs, func(i, j int) bool {
		si, sj := objs[i].Labels[labels.Service], objs[j].Labels[labels.Service]
		if si != sj {
			return si < sj
		}
		return objs[i].Created.After(objs[j].Created)
	})
	out := []ImageReport{}
	for _, o := range objs {
		d, err := lr.ImageDetail(ctx, o.ID)
		if err != nil {
			return out, err
		}
		out = append(out, ImageReport{Service: o.Labels[labels.Service], Tag: o.Name, ImageDetail: d})
	}
	return out, nil
}
