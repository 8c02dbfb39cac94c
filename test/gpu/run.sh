#!/bin/sh
# The GPU end-to-end suite (make e2e-gpu). On a machine without an NVIDIA
# driver it says so and exits 0. Otherwise it unpacks the payload that
# test/gpu/payload.sh built (building it first when this machine can), starts
# an engine with the NVIDIA runtime unless the machine has one, and runs the
# checks. Usage: test/gpu/run.sh [PAYLOAD_DIR] [TRANSCRIPT_DIR]
# The transcript and logs go to TRANSCRIPT_DIR (default: $OUT when set, else
# test/gpu/testdata/real).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
payload=${1:-$root/.devicebin/gpu}
outdir=${2:-${OUT:-$root/test/gpu/testdata/real}}

if [ ! -e /dev/nvidiactl ] && ! command -v nvidia-smi >/dev/null 2>&1; then
	echo "SKIP e2e-gpu: no NVIDIA driver on this machine (no /dev/nvidiactl, no nvidia-smi); run it on a GPU machine (README: GPU end-to-end suite)"
	exit 0
fi
if [ ! -f "$payload/engine.tar.xz" ] || [ ! -f "$payload/suite.tar.xz" ]; then
	echo "e2e-gpu: no payload in $payload; building it (needs Debian bookworm, network, Go and gcc)"
	"$root/test/gpu/payload.sh" "$payload"
fi

p=/tmp/devenv-gpu
rm -rf "$p" && mkdir -p "$p" "$outdir"
for a in engine suite; do
	xz -dc "$payload/$a.tar.xz" | tar -C "$p" -xf -
done
engine=$("$p/engine.sh" start "$p" "$outdir")
trap '"$p/engine.sh" stop "$p"' EXIT
echo "e2e-gpu: engine: $engine"
"$p/bin/gpu-e2e" -payload "$p" -engine "$engine" -out "$outdir" -machine "${DEVENV_GPU_MACHINE:-}"
