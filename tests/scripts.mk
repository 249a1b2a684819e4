# Script tests (run with $(SHELL); see AM_TESTS_ENVIRONMENT in Makefile.am).
SCRIPT_TESTS +=
