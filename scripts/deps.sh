#!/bin/bash
# Install the Debian 12 packages the build and the QEMU test harness need.
# A quick no-op when every package is already installed; otherwise one
# `apt-get update` and one `apt-get install`. Runs as root, or through sudo.
# Arguments name other packages to install instead (make pkg-deps).
set -euo pipefail

PKGS="linux-headers-6.12-amd64 linux-image-6.12-amd64 linux-source-6.12
      qemu-system-x86 busybox-static cpio xz-utils e2fsprogs mdadm fio
      valgrind gcc make nfs-kernel-server nfs-common rpcbind"
[ $# -gt 0 ] && PKGS="$*"

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi

echo "deps: installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "deps: not root and no sudo; install:$missing" >&2; exit 1; }
	SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
# shellcheck disable=SC2086
$SUDO apt-get install -y --no-install-recommends $missing
