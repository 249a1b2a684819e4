# mkfs.f2fs --rootdir tests; see the headers of the scripts.
# rootdir-host.sh: reproducibility and refusals (no kernel, about 45 s).
# rootdir-kernel.sh: trees from gentree.py copied by mkfs, mounted by the
# real kernel (tests/kernel/kvm-run) and compared with manifests (about
# 2-3 min); skips (77) without the harness unless F2FS_REQUIRE_KERNEL=1.
# rootdir-casefold.sh: case-insensitive source directories, made in the
# guest, copied there by our static mkfs, checked by kernel lookups (~10 s).
SCRIPT_TESTS += \
	tests/rootdir/rootdir-host.sh \
	tests/rootdir/rootdir-kernel.sh \
	tests/rootdir/rootdir-casefold.sh

EXTRA_DIST += \
	tests/rootdir/rootdir-host.sh \
	tests/rootdir/rootdir-kernel.sh \
	tests/rootdir/rootdir-casefold.sh \
	tests/rootdir/gentree.py \
	tests/rootdir/manifest.py \
	tests/kernel/guest/src/fsmanifest.c \
	tests/kernel/guest/src/chflag-casefold.c \
	tests/lib/report.sh
