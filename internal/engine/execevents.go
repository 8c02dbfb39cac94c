package engine

// ExecEvent is one thing an Executor reports while it works: a step of
// Compose's progress on an object, a message or a command's output line
// of a watch, or a warning. The executor only emits them; the view
// (internal/view/execview) decides what a terminal or --json shows.
type ExecEvent struct {
	Kind ExecEventKind
	// ID is the object a step is about (a container, network, volume or
	// image); empty for the watch's own events.
	ID string
	// Status is the step's state: "Working", "Done", "Warning" or "Error".
	Status string
	// Text and Details are what Compose says of the step; Text is a
	// watch event's message or output line too.
	Text, Details string
}

// ExecEventKind says which of an executor's reports an ExecEvent is.
type ExecEventKind int

const (
	// Step is Compose's progress on one object.
	Step ExecEventKind = iota
	// WatchMessage is a message of the watch (Compose's or devenv's).
	WatchMessage
	// WatchOutput is a line a sync+exec command printed.
	WatchOutput
	// WatchWarning is a watch problem that does not end the watch.
	WatchWarning
)

// ExecEvents receives an executor's events, in order, from any goroutine
// one at a time; nil drops them.
type ExecEvents func(ExecEvent)

// Emit hands e to the receiver, if there is one.
func (f ExecEvents) Emit(e ExecEvent) {
	if f != nil {
		f(e)
	}
}
