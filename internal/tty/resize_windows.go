//go:build windows

package tty

func onResize(func()) (stop func()) { return func() {} }
