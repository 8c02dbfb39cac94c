package sparkconf

import _ "embed"

//go:embed discovery.sh
var discoveryScript []byte

// DiscoveryScript returns devenv's POSIX sh GPU discovery script. It prints
// {"name":"gpu","addresses":["0",...]} for exactly the GPUs (or MIG
// devices) the container was given, numbered 0..N-1 as CUDA numbers them,
// and exits 1 with a message on stderr when nvidia-smi is missing or sees
// no GPU. Write it into the image executable (mode 0755).
func DiscoveryScript() []byte {
	return append([]byte(nil), discoveryScript...)
}
