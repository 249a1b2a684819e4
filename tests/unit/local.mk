# Unit tests (check). Each test_X.c is one program.
UNIT_TESTS += tests/unit/test_quota
check_PROGRAMS += tests/unit/test_quota
tests_unit_test_quota_SOURCES = tests/unit/test_quota.c
tests_unit_test_quota_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_quota_LDADD = $(LIBF2FS) $(CHECK_LIBS)
