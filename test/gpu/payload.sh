#!/bin/sh
# Builds everything the GPU end-to-end suite needs on a machine that has an
# NVIDIA driver but no Docker, no network and no registry, into one folder
# (default .devicebin/gpu), as two archives: engine.tar.xz (a Docker engine
# from Debian bookworm packages, the NVIDIA Container Toolkit from its Go
# module, a tiny glibc + busybox rootfs for the services' base image; built
# once) and suite.tar.xz (devenv, the suite's runner, the CUDA probe; built
# every time). Run it on a Debian bookworm x86-64 machine with network, Go
# and gcc. Nothing it builds or downloads is committed.
# Usage: test/gpu/payload.sh [OUT]; CHECK=1 only checks that OUT and the
# repository fit one device call (64 MiB), as the build does at its end.
set -eu

# The engine packages are bookworm's current ones (docker.io 20.10.24, as
# gpu-host.md records; the archive's DEBS lists the exact files); the
# toolkit is pinned to a release.
TOOLKIT_VERSION=${TOOLKIT_VERSION:-v1.20.2}
ENGINE_DEBS="docker.io containerd runc tini"
# dockerd and runc link these; the GPU machine's own copies may differ.
LIB_DEBS="libsystemd0 libdevmapper1.02.1 libcap2 libgcrypt20 liblzma5 libzstd1 liblz4-1 libselinux1 libudev1 libgpg-error0 libpcre2-8-0 libseccomp2"
ROOTFS_DEBS="libc6 libc-bin busybox-static"

root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/.devicebin/gpu}
work=${TMPDIR:-/tmp}/devenv-gpu-payload
die() { echo "payload: $*" >&2; exit 1; }

[ "$(uname -m)" = x86_64 ] || die "build on x86-64: the GPU machines are x86-64"
command -v go >/dev/null || die "needs Go to build devenv and the NVIDIA Container Toolkit"
command -v gcc >/dev/null || die "needs gcc to compile the CUDA probe"
command -v apt-get >/dev/null || die "needs apt-get (Debian bookworm) to download the engine packages"
mkdir -p "$out"

# The GPU machines take 64 MiB in all: the repository's files that travel
# (tracked and untracked-not-ignored) plus the carried payload. MARGIN is
# what the payload is held to, below that, so devenv can grow.
LIMIT=$((64 * 1048576))
MARGIN=$((56 * 1048576))

# pack DIR NAME: DIR as OUT/NAME.tar.xz, one xz stream with a dictionary
# larger than the biggest binary (dockerd, 72 MiB): the Go binaries share
# much (grpc, protobuf, runc's libcontainer), which -6's 8 MiB window and
# -T0's blocks never see (45.7 MB for the engine at -6, 35.5 MB so).
pack() {
	tar -C "$1" -cf - . | xz -T1 -9e --lzma2=preset=9e,dict=256MiB >"$out/$2.tar.xz"
	echo "payload: $2.tar.xz is $(mib "$(wc -c <"$out/$2.tar.xz")") MiB"
}

# mib BYTES: BYTES in MiB, one decimal.
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

# treesize: bytes of the repository's files that travel with every call.
treesize() {
	(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 stat -c %s -- 2>/dev/null) |
		awk '{ s += $1 } END { print s + 0 }'
}

# engine: dockerd and friends, their libraries and the toolkit. It changes
# only with the pins above, so it is kept once built (FORCE=1 rebuilds it).
engine() {
	e=$work/engine
	rm -rf "$work" && mkdir -p "$e/bin" "$e/lib" "$work/debs" "$work/x" "$work/rootfs"
	echo "payload: downloading $ENGINE_DEBS $LIB_DEBS $ROOTFS_DEBS"
	(cd "$work/debs" && apt-get download -q $ENGINE_DEBS $LIB_DEBS $ROOTFS_DEBS >/dev/null)
	for d in "$work"/debs/*.deb; do
		case $(basename "$d") in
		libc6_* | libc-bin_* | busybox-static_*) dpkg -x "$d" "$work/rootfs" ;;
		*) dpkg -x "$d" "$work/x" ;;
		esac
	done
	x=$work/x
	cp "$x/usr/sbin/dockerd" "$x/usr/bin/containerd" "$x/usr/bin/containerd-shim-runc-v2" "$x/usr/sbin/runc" "$e/bin/"
	cp "$x/usr/bin/tini-static" "$e/bin/docker-init"
	for f in "$x"/lib/x86_64-linux-gnu/*.so.* "$x"/usr/lib/x86_64-linux-gnu/*.so.*; do
		[ -e "$f" ] && cp -P "$f" "$e/lib/"
	done
	echo "payload: building the NVIDIA Container Toolkit $TOOLKIT_VERSION"
	GOBIN="$e/bin" CGO_ENABLED=1 go install -trimpath -ldflags='-s -w' \
		"github.com/NVIDIA/nvidia-container-toolkit/cmd/nvidia-ctk@$TOOLKIT_VERSION" \
		"github.com/NVIDIA/nvidia-container-toolkit/cmd/nvidia-container-runtime@$TOOLKIT_VERSION" \
		"github.com/NVIDIA/nvidia-container-toolkit/cmd/nvidia-container-runtime-hook@$TOOLKIT_VERSION" \
		"github.com/NVIDIA/nvidia-container-toolkit/cmd/nvidia-cdi-hook@$TOOLKIT_VERSION"
	(cd "$work/debs" && ls) >"$e/DEBS"
	echo "$TOOLKIT_VERSION" >"$e/TOOLKIT_VERSION"
	rootfs
	pack "$e" engine
}

# rootfs: busybox and glibc from bookworm, the base the services build FROM.
rootfs() {
	r=$work/rootfs
	rm -rf "$r/usr/share" "$r/usr/lib/x86_64-linux-gnu/gconv" "$r/usr/lib/locale"
	mkdir -p "$r/bin" "$r/tmp" "$r/etc" "$r/proc" "$r/sys" "$r/dev"
	for l in sh ls cat env sleep grep sed tr head tail wc echo printf test true false ps kill; do
		ln -sf busybox "$r/bin/$l"
	done
	echo "/usr/local/nvidia/lib64" >"$r/etc/ld.so.conf"
	tar -C "$r" -cf "$e/rootfs-base.tar" .
}

# suite: what changes with the code: devenv (as installed, and without
# devenv-nvml), the runner, the probe (each service's Dockerfile copies it
# in) and the scripts.
suite() {
	s=$work/suite
	rm -rf "$s" && mkdir -p "$s/bin"
	echo "payload: building devenv, the runner and the probe"
	# devenv is three programs side by side: the front answers a no-op up,
	# devenv-core is the rest, devenv-nvml (the one built with cgo) reads
	# NVML for it. nocgo/ holds the same devenv and devenv-core (hard links:
	# stored once) without devenv-nvml, so they read the GPUs through the engine
	mkdir -p "$s/bin/nocgo"
	(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$s/bin/" ./cmd/devenv ./cmd/devenv-core)
	(cd "$root" && CGO_ENABLED=1 go build -trimpath -ldflags='-s -w' -o "$s/bin/" ./cmd/devenv-nvml)
	ln "$s/bin/devenv" "$s/bin/devenv-core" "$s/bin/nocgo/"
	(cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$s/bin/gpu-e2e" ./test/gpu/cmd/gpu-e2e)
	gcc -O2 -Wall -Wextra -o "$s/probe" "$root/test/gpu/probe/probe.c" -ldl
	cp "$root/test/gpu/engine.sh" "$root/test/gpu/run.sh" "$s/"
	(cd "$root" && git describe --always --dirty 2>/dev/null || echo unknown) >"$s/COMMIT"
	pack "$s" suite
}

# fits: the carried folder and the repository under the limit, or die.
fits() {
	size=$(du -sb "$out" | cut -f1)
	tree=$(treesize)
	total=$((size + tree))
	echo "payload: carried $(mib "$size") MiB ($out) + repository $(mib "$tree") MiB = $(mib "$total") MiB of 64 (margin at 56)"
	[ "$total" -le "$LIMIT" ] || die "$(mib "$total") MiB is over the GPU machines' 64 MiB: the call would be refused; leave something out of $out or the repository"
	[ "$total" -le "$MARGIN" ] || echo "payload: WARNING: $(mib "$total") MiB is past the 56 MiB margin: devenv growing by 10 MB would not fit" >&2
}

if [ "${CHECK:-}" ]; then
	fits
	exit 0
fi
[ -f "$out/engine.tar.xz" ] && [ -z "${FORCE:-}" ] && echo "payload: keeping $out/engine.tar.xz (FORCE=1 rebuilds it)" || engine
suite
fits
