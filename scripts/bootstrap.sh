#!/bin/bash
# bootstrap.sh [demo|test]: install the Debian packages the project needs
# (when run as root; otherwise say which are missing), then configure and
# build out of tree. Used by ./demo.sh, ./check.sh and .ci/run.
#   F2FS_BUILD_DIR        build directory (default: build)
#   F2FS_CONFIGURE_FLAGS  extra configure flags (e.g. --enable-sanitizers)
set -eu
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
what=${1:-demo}

build_pkgs="gcc make autoconf automake pkg-config libblkid-dev uuid-dev zlib1g-dev check"
# f2fs-tools: the peer for cross-checks; qemu & co: the real-kernel tests;
# unicode-data: regenerating the utf8 tables and Unicode's normalisation tests
test_pkgs="f2fs-tools qemu-system-x86 busybox-static cpio kmod python3 time e2fsprogs util-linux bzip2 attr acl strace clang libclang-rt-14-dev unicode-data librsvg2-bin"
pkgs=$build_pkgs
[[ $what == test || $what == demo ]] && pkgs="$pkgs f2fs-tools"
[[ $what == test ]] && pkgs="$pkgs $test_pkgs"

missing=()
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if ((${#missing[@]})); then
	if ((EUID != 0)); then
		echo "bootstrap: missing Debian packages: ${missing[*]}" >&2
		echo "bootstrap: run as root, or: apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
	echo "bootstrap: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq "${missing[@]}" >/dev/null
fi

build=$top/${F2FS_BUILD_DIR:-build}
cd "$top"
if [[ ! -x configure || configure.ac -nt configure || Makefile.am -nt Makefile.in ]]; then
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
fi
mkdir -p "$build"
cd "$build"
flags=${F2FS_CONFIGURE_FLAGS:-}
if [[ ! -f Makefile || ! -f .configure-flags || $(cat .configure-flags) != "$flags" ]]; then
	# shellcheck disable=SC2086
	"$top/configure" -q $flags
	echo "$flags" >.configure-flags
fi
make -s -j"$(nproc)" >/dev/null
echo "bootstrap: built in ${build#"$top"/}"
