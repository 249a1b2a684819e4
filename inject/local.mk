# inject.f2fs (included from Makefile.am).
sbin_PROGRAMS += inject/inject.f2fs
inject_inject_f2fs_SOURCES = inject/main.c inject/locate.c inject/apply.c inject/inject.h
inject_inject_f2fs_LDADD = $(LIBF2FS)
inject_inject_f2fs_LDFLAGS = $(AM_LDFLAGS) $(TOOL_LDFLAGS)
dist_man_MANS += man/inject.f2fs.8

SCRIPT_TESTS += tests/inject/inject.sh
EXTRA_DIST += tests/inject/inject.sh
