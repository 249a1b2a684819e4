# Unit tests (check). Each test_X.c is one program.
UNIT_TESTS += tests/unit/test_quota
check_PROGRAMS += tests/unit/test_quota
tests_unit_test_quota_SOURCES = tests/unit/test_quota.c tests/unit/unit.h
tests_unit_test_quota_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_quota_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_crc
check_PROGRAMS += tests/unit/test_crc
tests_unit_test_crc_SOURCES = tests/unit/test_crc.c tests/unit/unit.h
tests_unit_test_crc_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_crc_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_hash
check_PROGRAMS += tests/unit/test_hash
tests_unit_test_hash_SOURCES = tests/unit/test_hash.c tests/unit/unit.h
tests_unit_test_hash_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_hash_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_layout
check_PROGRAMS += tests/unit/test_layout
tests_unit_test_layout_SOURCES = tests/unit/test_layout.c tests/unit/unit.h
tests_unit_test_layout_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_layout_LDADD = $(LIBF2FS) $(CHECK_LIBS) -lm

UNIT_TESTS += tests/unit/test_super
check_PROGRAMS += tests/unit/test_super
tests_unit_test_super_SOURCES = tests/unit/test_super.c tests/unit/unit.h
tests_unit_test_super_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_super_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_nat_bits
check_PROGRAMS += tests/unit/test_nat_bits
tests_unit_test_nat_bits_SOURCES = tests/unit/test_nat_bits.c tests/unit/unit.h
tests_unit_test_nat_bits_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_nat_bits_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_node_ofs
check_PROGRAMS += tests/unit/test_node_ofs
tests_unit_test_node_ofs_SOURCES = tests/unit/test_node_ofs.c tests/unit/unit.h
tests_unit_test_node_ofs_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_node_ofs_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_summary
check_PROGRAMS += tests/unit/test_summary
tests_unit_test_summary_SOURCES = tests/unit/test_summary.c tests/unit/unit.h
tests_unit_test_summary_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_summary_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_compress
check_PROGRAMS += tests/unit/test_compress
tests_unit_test_compress_SOURCES = tests/unit/test_compress.c tests/unit/unit.h
tests_unit_test_compress_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_compress_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_checkpoint
check_PROGRAMS += tests/unit/test_checkpoint
tests_unit_test_checkpoint_SOURCES = tests/unit/test_checkpoint.c tests/unit/unit.h
tests_unit_test_checkpoint_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_checkpoint_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_dev
check_PROGRAMS += tests/unit/test_dev
tests_unit_test_dev_SOURCES = tests/unit/test_dev.c tests/unit/unit.h
tests_unit_test_dev_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_dev_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_mkfs
check_PROGRAMS += tests/unit/test_mkfs
tests_unit_test_mkfs_SOURCES = tests/unit/test_mkfs.c tests/unit/unit.h
tests_unit_test_mkfs_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_mkfs_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_units
check_PROGRAMS += tests/unit/test_units
tests_unit_test_units_SOURCES = tests/unit/test_units.c tests/unit/unit.h
tests_unit_test_units_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_units_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_fs_open
check_PROGRAMS += tests/unit/test_fs_open
tests_unit_test_fs_open_SOURCES = tests/unit/test_fs_open.c tests/unit/unit.h
tests_unit_test_fs_open_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_fs_open_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_check_unreadable
check_PROGRAMS += tests/unit/test_check_unreadable
tests_unit_test_check_unreadable_SOURCES = tests/unit/test_check_unreadable.c tests/unit/unit.h
tests_unit_test_check_unreadable_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fsck
tests_unit_test_check_unreadable_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_check_unreadable_LDADD = $(LIBFSCK) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_sort_vec
check_PROGRAMS += tests/unit/test_sort_vec
tests_unit_test_sort_vec_SOURCES = tests/unit/test_sort_vec.c tests/unit/unit.h
tests_unit_test_sort_vec_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_sort_vec_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_u32map
check_PROGRAMS += tests/unit/test_u32map
tests_unit_test_u32map_SOURCES = tests/unit/test_u32map.c tests/unit/unit.h
tests_unit_test_u32map_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_u32map_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_problems
check_PROGRAMS += tests/unit/test_problems
tests_unit_test_problems_SOURCES = tests/unit/test_problems.c tests/unit/unit.h
tests_unit_test_problems_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fsck
tests_unit_test_problems_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_problems_LDADD = $(LIBFSCK) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_write
check_PROGRAMS += tests/unit/test_write
tests_unit_test_write_SOURCES = tests/unit/test_write.c tests/unit/unit.h
tests_unit_test_write_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_write_LDADD = $(LIBF2FS) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_fs_flush
check_PROGRAMS += tests/unit/test_fs_flush
tests_unit_test_fs_flush_SOURCES = tests/unit/test_fs_flush.c tests/unit/unit.h
tests_unit_test_fs_flush_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fsck
tests_unit_test_fs_flush_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_fs_flush_LDADD = $(LIBFSCK) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_repair_crash
check_PROGRAMS += tests/unit/test_repair_crash
tests_unit_test_repair_crash_SOURCES = tests/unit/test_repair_crash.c tests/unit/unit.h
tests_unit_test_repair_crash_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fsck \
	-DCASES_DIR='"$(abs_top_srcdir)/tests/fsck/cases"'
tests_unit_test_repair_crash_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_repair_crash_LDADD = $(LIBFSCK) $(CHECK_LIBS)

UNIT_TESTS += tests/unit/test_utf8
check_PROGRAMS += tests/unit/test_utf8
tests_unit_test_utf8_SOURCES = tests/unit/test_utf8.c tests/unit/unit.h
tests_unit_test_utf8_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_utf8_LDADD = $(LIBF2FS) $(CHECK_LIBS)

# NormalizationTest.txt of the installed Unicode data (skips without it)
UNIT_TESTS += tests/unit/test_utf8_ucd
check_PROGRAMS += tests/unit/test_utf8_ucd
tests_unit_test_utf8_ucd_SOURCES = tests/unit/test_utf8_ucd.c tests/unit/unit.h
tests_unit_test_utf8_ucd_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_utf8_ucd_LDADD = $(LIBF2FS) $(CHECK_LIBS)

# mkfs --rootdir's casefolded-directory check (a private header of lib/build)
UNIT_TESTS += tests/unit/test_rootdir_casefold
check_PROGRAMS += tests/unit/test_rootdir_casefold
tests_unit_test_rootdir_casefold_SOURCES = tests/unit/test_rootdir_casefold.c tests/unit/unit.h
tests_unit_test_rootdir_casefold_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/build
tests_unit_test_rootdir_casefold_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_rootdir_casefold_LDADD = $(LIBF2FS) $(CHECK_LIBS)
