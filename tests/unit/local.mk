# Unit tests (check). Each tests/unit/test_X.c is one program, built from
# that file alone with the defaults (LDADD, AM_CFLAGS in Makefile.am); a
# test that needs more keeps its own lines below.
UNIT_PROGS = \
	tests/unit/test_quota \
	tests/unit/test_acl \
	tests/unit/test_crc \
	tests/unit/test_fields \
	tests/unit/test_hash \
	tests/unit/test_dir_levels \
	tests/unit/test_layout \
	tests/unit/test_super \
	tests/unit/test_nat_bits \
	tests/unit/test_node_ofs \
	tests/unit/test_summary \
	tests/unit/test_compress \
	tests/unit/test_checkpoint \
	tests/unit/test_dev \
	tests/unit/test_mkfs \
	tests/unit/test_units \
	tests/unit/test_fs_open \
	tests/unit/test_check_unreadable \
	tests/unit/test_sort_vec \
	tests/unit/test_u32map \
	tests/unit/test_problems \
	tests/unit/test_write \
	tests/unit/test_fs_flush \
	tests/unit/test_repair_crash \
	tests/unit/test_utf8 \
	tests/unit/test_utf8_ucd \
	tests/unit/test_rootdir_casefold
UNIT_TESTS += $(UNIT_PROGS)
check_PROGRAMS += $(UNIT_PROGS)
noinst_HEADERS += tests/unit/unit.h

tests_unit_test_layout_LDADD = $(LDADD) -lm

# fsck's checker and its private headers
tests_unit_test_check_unreadable_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fsck
tests_unit_test_check_unreadable_LDADD = $(LIBFSCK) $(CHECK_LIBS)
tests_unit_test_problems_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fsck
tests_unit_test_problems_LDADD = $(LIBFSCK) $(CHECK_LIBS)
tests_unit_test_fs_flush_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fsck
tests_unit_test_fs_flush_LDADD = $(LIBFSCK) $(CHECK_LIBS)
# crashes a repair at every write over the fsck cases' images
tests_unit_test_repair_crash_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/fsck \
	-DCASES_DIR='"$(abs_top_srcdir)/tests/fsck/cases"'
tests_unit_test_repair_crash_LDADD = $(LIBFSCK) $(CHECK_LIBS)

# test_utf8_ucd: NormalizationTest.txt of the installed Unicode data (skips
# without it). test_rootdir_casefold: mkfs --rootdir's casefolded-directory
# check (a private header of lib/build).
tests_unit_test_rootdir_casefold_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/build
