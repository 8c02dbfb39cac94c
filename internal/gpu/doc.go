// Package gpu reads the machine's NVIDIA GPUs through NVML, places devenv's
// services on them (with a split of each GPU's memory when services share
// one), and maps GPU processes back to the Docker containers that own them.
//
// The NVML adapter needs cgo on Linux; everywhere else Open returns an error
// wrapping ErrNoNVML that says where GPU facts come from instead.
package gpu
