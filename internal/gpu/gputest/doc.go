// Package gputest provides machine shapes for tests: a laptop with one 8 GB
// GPU, a workstation with two 48 GB GPUs, an 8-GPU H100 server with NVLink,
// an A100 in MIG mode, and a host without GPUs.
//
// On Linux with cgo each shape is a go-nvml mock server (see the *NVML
// functions), and the *gpu.Host functions run gpu's real NVML adapter over
// it. Elsewhere the Host functions decode the adapter's recorded output in
// testdata/, which TestGolden keeps equal to what the adapter produces.
package gputest
