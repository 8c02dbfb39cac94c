package spec

// Suggest returns the candidate closest to word by edit distance, or ""
// when none is close enough to be a likely typo. The CLI uses it for
// "did you mean" hints on command and service names.
func Suggest(word string, candidates []string) string { return suggest(word, candidates) }
