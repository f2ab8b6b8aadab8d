#!/bin/sh
# Rewrite tests/golden/local.mk from the goldens present (run from the top of the tree).
set -e
cd "$(dirname "$0")"
{
	echo "# tests/golden: golden screens of tests/unit/test_ui_golden (regenerate this"
	echo "# list with tests/golden/list.sh after adding a case)."
	echo "EXTRA_DIST += tests/golden/list.sh \\"
	ls *.golden | sed 's|^|	tests/golden/|; s|$| \\|' | sed '$ s| \\$||'
} > local.mk
