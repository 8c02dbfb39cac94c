// Package view renders internal/app's results as text for people: one
// function per result type, writing to an io.Writer. Streams that have no
// result at the end (log lines) are rendered a line at a time, as one JSON
// object a line when asked. It decides nothing: what a result holds is the
// application layer's; whether text or JSON is printed, and the exit code,
// are the CLI's.
package view
