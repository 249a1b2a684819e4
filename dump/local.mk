# dump.f2fs and the read-side library it uses (included from Makefile.am).
lib_libf2fs_a_SOURCES += lib/fs.c lib/fs_priv.h lib/nat.c lib/dir_read.c
noinst_HEADERS += include/f2fs/fs.h include/f2fs/nat.h include/f2fs/dir.h

sbin_PROGRAMS += dump/dump.f2fs
dump_dump_f2fs_SOURCES = dump/main.c
dump_dump_f2fs_LDADD = $(LIBF2FS)
dist_man_MANS += man/dump.f2fs.8

SCRIPT_TESTS += tests/dump/dump-basic.sh
EXTRA_DIST += tests/dump/dump-basic.sh
