# Code the tools share and the library must not hold, because it prints
# (included from Makefile.am): a small library of its own, not installed.
noinst_LIBRARIES += common/libcommon.a
common_libcommon_a_SOURCES = common/out.c common/names.c
noinst_HEADERS += common/out.h common/names.h
LIBCOMMON = common/libcommon.a
