#!/bin/sh
# Starts a Docker engine with the NVIDIA runtime in CDI mode from the GPU
# suite's payload (test/gpu/payload.sh), on a machine that has an NVIDIA
# driver but no Docker: the recipe of ../shared/reference/gpu-host.md.
# When the machine's own engine already offers GPUs, it uses that one.
#   engine.sh start PAYLOAD_DIR LOG_DIR   prints "own" or "payload"
#   engine.sh stop PAYLOAD_DIR
set -eu
cmd=$1 p=$2
state=/run/devenv-gpu-engine
die() { echo "engine: $*" >&2; exit 1; }

# status is the engine's GPU runtime: nvidia, none or unreachable.
status() { "$p/bin/gpu-e2e" -engine-status; }

start() {
	logs=$1
	if [ "$(status)" = nvidia ]; then
		echo own
		return
	fi
	[ -x "$p/bin/dockerd" ] || die "no engine here and no payload at $p: run test/gpu/payload.sh on a Debian bookworm machine and copy .devicebin/gpu here"
	mkdir -p "$state" /etc/cdi /etc/nvidia-container-runtime /etc/docker
	export PATH="$p/bin:$PATH:/usr/local/nvidia/bin"
	# The driver's utilities may live outside PATH (/usr/local/nvidia here):
	# nvidia-ctk finds nvidia-smi through PATH.
	nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml >"$logs/cdi-generate.log" 2>&1 ||
		die "nvidia-ctk cdi generate failed: $(tail -3 "$logs/cdi-generate.log")"
	cat >/etc/nvidia-container-runtime/config.toml <<TOML
[nvidia-container-runtime]
mode = "cdi"
runtimes = ["runc"]
[nvidia-container-runtime.modes.cdi]
default-kind = "nvidia.com/gpu"
spec-dirs = ["/etc/cdi"]
TOML
	cat >"$state/daemon.json" <<JSON
{
  "runtimes": {"nvidia": {"path": "$p/bin/nvidia-container-runtime"}},
  "default-runtime": "nvidia",
  "iptables": false,
  "bridge": "none",
  "data-root": "/var/lib/devenv-gpu-docker",
  "exec-root": "$state/exec",
  "pidfile": "$state/dockerd.pid",
  "init-path": "$p/bin/docker-init"
}
JSON
	# dockerd registers its nvidia device driver only when the toolkit's hook
	# is on its PATH; it and runc link the bookworm libraries in lib/.
	LD_LIBRARY_PATH="$p/lib" setsid dockerd --config-file "$state/daemon.json" \
		>"$logs/dockerd.log" 2>&1 </dev/null &
	i=0
	until [ "$(status)" = nvidia ]; do
		i=$((i + 1))
		[ $i -lt 60 ] || die "dockerd did not answer with an nvidia runtime in 30 s ($(status)): $(tail -5 "$logs/dockerd.log")"
		sleep 0.5
	done
	echo payload
}

stop() {
	[ -f "$state/dockerd.pid" ] || return 0
	pid=$(cat "$state/dockerd.pid")
	kill "$pid" 2>/dev/null || true
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 40 ]; do
		i=$((i + 1))
		sleep 0.5
	done
}

case $cmd in
start) start "${3:?log folder}" ;;
stop) stop ;;
*) die "usage: engine.sh start PAYLOAD_DIR LOG_DIR | stop PAYLOAD_DIR" ;;
esac
