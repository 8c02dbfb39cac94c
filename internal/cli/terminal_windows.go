//go:build windows

package cli

func onResize(func()) (stop func()) { return func() {} }
