#!/bin/sh
# GPU discovery script for Spark, written for devenv.
#
# Spark runs it (spark.{driver,executor}.resource.gpu.discoveryScript, and
# spark.worker.resource.gpu.discoveryScript in standalone workers) and reads
# one JSON object from stdout: {"name":"gpu","addresses":["0","1"]}.
#
# Inside a container the GPUs it was given, whether by index, UUID or MIG
# UUID, are numbered 0..N-1 for CUDA, so the addresses are 0..N-1 for the N
# GPUs (or MIG devices) that nvidia-smi sees. It uses shell built-ins only.

me=devenv-gpu-discovery

fail() {
	printf '%s: %s\n' "$me" "$*" >&2
	exit 1
}

command -v nvidia-smi >/dev/null 2>&1 ||
	fail "nvidia-smi is not on PATH, so this container has no NVIDIA driver utilities. Give the service a GPU (gpus: in devenv.yaml) and run 'devenv doctor' to check the NVIDIA Container Toolkit."

if ! list=$(nvidia-smi -L 2>&1); then
	case $list in
	*"No devices were found"*)
		fail "nvidia-smi sees no GPU in this container. Give the service a GPU (gpus: in devenv.yaml), or set gpus: 0 to run Spark on the CPU." ;;
	*)
		fail "nvidia-smi -L failed: $list. Run 'devenv doctor' to check the driver." ;;
	esac
fi

gpus=0
migs=0
while IFS= read -r line; do
	line=${line#"${line%%[! 	]*}"}
	case $line in
	"MIG "*) migs=$((migs + 1)) ;;
	"GPU "[0-9]*) gpus=$((gpus + 1)) ;;
	esac
done <<LIST
$list
LIST

if [ "$migs" -gt 0 ]; then
	# CUDA numbers the MIG devices it was given 0..N-1 and ignores their parents.
	count=$migs
else
	if ! indexes=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>&1); then
		fail "nvidia-smi --query-gpu=index failed: $indexes. Run 'devenv doctor' to check the driver."
	fi
	count=0
	while IFS= read -r line; do
		line=${line#"${line%%[! 	]*}"}
		case $line in
		[0-9]*) count=$((count + 1)) ;;
		esac
	done <<INDEXES
$indexes
INDEXES
	if [ "$count" -ne "$gpus" ]; then
		fail "nvidia-smi -L lists $gpus GPU(s) but --query-gpu=index lists $count; the driver is in an odd state. Run 'devenv doctor'."
	fi
fi

[ "$count" -gt 0 ] ||
	fail "nvidia-smi sees no GPU in this container. Give the service a GPU (gpus: in devenv.yaml), or set gpus: 0 to run Spark on the CPU."

out='{"name":"gpu","addresses":['
i=0
while [ "$i" -lt "$count" ]; do
	[ "$i" -gt 0 ] && out="$out,"
	out="$out\"$i\""
	i=$((i + 1))
done
printf '%s]}\n' "$out"
