package app

import "github.com/devenv-dev/devenv/compose/loader"

// composeFiles is the command's one read of the project's compose files,
// handed to the lock check and lock, the plan, doctor's port checks and
// (through the plan) the exports, so that compose-go reads the files once
// per command. It is made on first use, and again only when devenv.yaml
// now names other files (mirror's edit of the project). Options.Profiles
// (--profile) pick its active selection.
func (p *Project) composeFiles() *loader.Files {
	if p.compose == nil {
		p.compose = loader.NewFiles(p.Spec.Compose, p.Spec.Dir, p.Spec.Name).Selecting(p.opts.Profiles)
	}
	p.compose = p.compose.For(p.Spec.Compose, p.Spec.Dir, p.Spec.Name).Recording(p.reads)
	return p.compose
}
