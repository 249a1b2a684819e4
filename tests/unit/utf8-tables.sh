#!/bin/bash
# lib/format/utf8_data.c is committed output of scripts/gen-utf8-tables.py:
# regenerating it from the installed Unicode Character Database (Debian's
# unicode-data, or F2FS_UCD_DIR) must give the same bytes, so the tables are
# the data's and nobody edited them by hand. Skips (77) without the data or
# python3. After a generator change: scripts/gen-utf8-tables.py -o lib/format/utf8_data.c
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SRC=${top_srcdir:-$HERE/../..}
ucd=${F2FS_UCD_DIR:-/usr/share/unicode}

for f in UnicodeData.txt CaseFolding.txt DerivedAge.txt DerivedCoreProperties.txt; do
	if [[ ! -r $ucd/$f ]]; then
		echo "SKIP: no $ucd/$f (apt-get install unicode-data)"
		exit 77
	fi
done
if ! command -v python3 >/dev/null; then
	echo "SKIP: no python3"
	exit 77
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
python3 "$SRC/scripts/gen-utf8-tables.py" "$ucd" -o "$tmp" || exit 1
if cmp -s "$tmp" "$SRC/lib/format/utf8_data.c"; then
	echo "PASS: lib/format/utf8_data.c is what the generator makes from $ucd"
	exit 0
fi
echo "FAIL: lib/format/utf8_data.c differs from the generator's output from $ucd:"
diff "$SRC/lib/format/utf8_data.c" "$tmp" | head -20
exit 1
