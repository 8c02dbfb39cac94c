package spec

// PosOf says where key of service was written, so that later stages (the
// lock, the resolver) can point their errors at devenv.yaml. The file is
// shown relative to the project. When the key was not written it gives the
// service's own position; service "" looks up a top-level key
// ("services", "mirrors", ...). An unknown service gives Pos{}.
func (p *Project) PosOf(service, key string) (file string, pos Pos) {
	file = p.displayFile()
	if service == "" {
		return file, p.Pos[key]
	}
	s := p.Service(service)
	if s == nil {
		return file, Pos{}
	}
	if at, ok := s.Pos[key]; ok {
		return file, at
	}
	return file, s.Pos[""]
}

// ErrorAt builds an *Error pointing at key of service (see PosOf), for
// stages after loading that find a problem with what the user wrote.
func (p *Project) ErrorAt(service, key, msg, hint string) *Error {
	file, pos := p.PosOf(service, key)
	return &Error{File: file, Pos: pos, Msg: msg, Hint: hint}
}

func (p *Project) displayFile() string {
	l := &loader{p: p}
	return l.display(p.File)
}
