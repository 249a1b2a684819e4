# dump.f2fs (included from Makefile.am).
sbin_PROGRAMS += dump/dump.f2fs
dump_dump_f2fs_SOURCES = dump/main.c dump/msg.c dump/views.c dump/extract.c \
	dump/dump.h dump/fmt.c dump/sb.c dump/cp.c dump/inode.c \
	dump/blockmap.c dump/ls.c dump/target.c dump/xattrs.c dump/zones.c \
	dump/svgmap.c dump/metadump.c
dump_dump_f2fs_LDADD = $(LIBCOMMON) $(LIBF2FS)
dump_dump_f2fs_LDFLAGS = $(AM_LDFLAGS) $(TOOL_LDFLAGS)
dist_man_MANS += man/dump.f2fs.8

SCRIPT_TESTS += tests/dump/dump-basic.sh tests/dump/dump-views.sh \
	tests/dump/dump-extract.sh tests/dump/dump-gc.sh tests/dump/dump-kernel.sh \
	tests/dump/dump-xattr.sh tests/dump/dump-inode.sh tests/dump/dump-json.sh \
	tests/dump/dump-map.sh tests/dump/dump-metadump.sh
EXTRA_DIST += tests/dump/dump-basic.sh tests/dump/dump-views.sh \
	tests/dump/dump-extract.sh tests/dump/dump-gc.sh tests/dump/sitedit.py \
	tests/dump/common.sh tests/dump/dump-kernel.sh tests/dump/dump-xattr.sh \
	tests/dump/dump-inode.sh tests/dump/dump-json.sh tests/dump/dump-map.sh \
	tests/dump/dump-metadump.sh
# the --gc window against the kernel's own victim choice (QEMU; two boots)
SCRIPT_TESTS += tests/dump/dump-gc-kernel.sh
EXTRA_DIST += tests/dump/dump-gc-kernel.sh tests/dump/guest-gc.c
