# Script tests (run with $(SHELL); see AM_TESTS_ENVIRONMENT in Makefile.am).
# tests/peer: compare with f2fs-tools (skip, exit 77, when it is missing,
# unless F2FS_REQUIRE_PEER=1). tests/cli: command-line behaviour.
SCRIPT_TESTS += \
	tests/peer/fsck-matrix.sh \
	tests/peer/layout-vs-f2fs-tools.sh \
	tests/cli/bad-input.sh \
	tests/cli/reformat.sh \
	tests/lint/layers.sh \
	tests/lint/calls.sh \
	tests/lint/docs.sh \
	tests/lint/case-list.sh \
	tests/unit/utf8-tables.sh

EXTRA_DIST += \
	tests/peer/fsck-matrix.sh \
	tests/peer/layout-vs-f2fs-tools.sh \
	tests/peer/common.sh \
	tests/peer/f2fsimg.py \
	tests/cli/bad-input.sh \
	tests/cli/reformat.sh \
	tests/lint/layers.sh \
	tests/lint/calls.sh \
	tests/lint/docs.sh \
	tests/lint/case-list.sh \
	tests/lint/layers.inc \
	tests/unit/utf8-tables.sh
