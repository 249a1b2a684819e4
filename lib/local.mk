# The library (included from Makefile.am): one folder per layer, lowest
# first; a layer uses only those before it (tests/lint/layers.sh and
# tests/lint/calls.sh check it).
noinst_LIBRARIES += lib/libf2fs.a
lib_libf2fs_a_SOURCES =
lib_libf2fs_a_SOURCES += \
	lib/util/error.c lib/util/sort.c lib/util/sort_impl.h lib/util/u32map.c \
	lib/util/units.c lib/util/vec.c
lib_libf2fs_a_SOURCES += \
	lib/format/checkpoint.c lib/format/compress.c lib/format/crc.c \
	lib/format/dentry.c lib/format/dir_levels.c lib/format/feature.c lib/format/fields.c lib/format/hash.c \
	lib/format/acl.c lib/format/inode.c lib/format/journal.c lib/format/layout.c \
	lib/format/nat_bits.c lib/format/node_ofs.c lib/format/quota.c \
	lib/format/summary.c lib/format/super.c lib/format/utf16.c lib/format/utf8.c \
	lib/format/utf8_data.c lib/format/utf8_data.h
lib_libf2fs_a_SOURCES += \
	lib/io/dev.c lib/io/dev_priv.h lib/io/devset.c lib/io/disk.c lib/io/probe.c \
	lib/io/zones.c
lib_libf2fs_a_SOURCES += \
	lib/fs/dir_read.c lib/fs/fs.c lib/fs/fs_devices.c lib/fs/fs_open.c \
	lib/fs/fs_priv.h lib/fs/gc.c lib/fs/meta_read.c lib/fs/nat.c lib/fs/nat_bits_read.c lib/fs/node_find.c \
	lib/fs/sit.c lib/fs/ssa.c lib/fs/xattr_read.c
lib_libf2fs_a_SOURCES += \
	lib/write/cp_pack.c lib/write/flush_plan.c lib/write/fs_flush.c \
	lib/write/meta_area.c lib/write/nat_flush.c lib/write/sit_flush.c \
	lib/write/table_flush.c lib/write/txn.c
lib_libf2fs_a_SOURCES += \
	lib/build/build.h lib/build/build_alloc.c lib/build/build_cp.c \
	lib/build/build_dir.c lib/build/build_nat.c lib/build/build_node.c \
	lib/build/build_xattr.c lib/build/loader.c lib/build/loader.h \
	lib/build/mkfs.c lib/build/populate.c lib/build/populate.h \
	lib/build/zoned.c lib/build/zoned.h \
	lib/build/host_open.c lib/build/host_open.h lib/build/source.c \
	lib/build/source.h lib/build/tree.c
lib_libf2fs_a_CFLAGS = $(AM_CFLAGS) $(BLKID_CFLAGS) $(UUID_CFLAGS) $(ZLIB_CFLAGS)

LIBF2FS = lib/libf2fs.a $(BLKID_LIBS) $(UUID_LIBS) $(ZLIB_LIBS)

# the library's headers, in the same folders under include/f2fs/
noinst_HEADERS += \
	include/f2fs/util/error.h include/f2fs/util/sort.h include/f2fs/util/u32map.h \
	include/f2fs/util/units.h include/f2fs/util/vec.h
noinst_HEADERS += \
	include/f2fs/format/bitmap.h include/f2fs/format/checkpoint.h \
	include/f2fs/format/compress.h include/f2fs/format/crc.h \
	include/f2fs/format/dentry.h include/f2fs/format/dir_levels.h include/f2fs/format/endian.h \
	include/f2fs/format/feature.h include/f2fs/format/fields.h \
	include/f2fs/format/format.h \
	include/f2fs/format/acl.h include/f2fs/format/hash.h include/f2fs/format/inode.h \
	include/f2fs/format/journal.h include/f2fs/format/layout.h \
	include/f2fs/format/nat_bits.h include/f2fs/format/node_ofs.h \
	include/f2fs/format/quota.h include/f2fs/format/summary.h \
	include/f2fs/format/super.h include/f2fs/format/utf16.h \
	include/f2fs/format/utf8.h include/f2fs/format/ver_bitmap.h
noinst_HEADERS += \
	include/f2fs/io/dev.h include/f2fs/io/probe.h include/f2fs/io/zones.h
noinst_HEADERS += \
	include/f2fs/fs/dir.h include/f2fs/fs/fs.h include/f2fs/fs/gc.h \
	include/f2fs/fs/meta_read.h include/f2fs/fs/nat.h include/f2fs/fs/nat_bits_read.h \
	include/f2fs/fs/node_find.h \
	include/f2fs/fs/sit.h include/f2fs/fs/ssa.h include/f2fs/fs/xattr.h
noinst_HEADERS += \
	include/f2fs/write/block_io.h include/f2fs/write/cp_pack.h \
	include/f2fs/write/flush_plan.h include/f2fs/write/fs_flush.h \
	include/f2fs/write/meta_area.h include/f2fs/write/nat_flush.h \
	include/f2fs/write/sit_flush.h include/f2fs/write/table_flush.h \
	include/f2fs/write/txn.h
noinst_HEADERS += \
	include/f2fs/build/mkfs.h include/f2fs/build/tree.h
