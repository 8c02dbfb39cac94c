package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSecondInterruptEnds: the first Ctrl-C cancels the operation (its
// context), the second ends devenv with 130 at once.
func TestSecondInterruptEnds(t *testing.T) {
	sig := make(chan os.Signal, 2)
	var errOut bytes.Buffer
	exited := make(chan int, 1)
	ctx, stop := watchInterrupts(t.Context(), sig, &errOut, func(code int) { exited <- code })
	defer stop()
	sig <- os.Interrupt
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first interrupt did not cancel the operation")
	}
	select {
	case code := <-exited:
		t.Fatalf("the first interrupt ended devenv (%d)", code)
	case <-time.After(50 * time.Millisecond):
	}
	sig <- os.Interrupt
	select {
	case code := <-exited:
		if code != 130 || !strings.Contains(errOut.String(), "interrupted again") {
			t.Errorf("second interrupt: exit %d, said %q", code, errOut.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second interrupt did not end devenv")
	}
}
