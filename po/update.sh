#!/bin/sh
# Brings po/zh_CN.po up to date with the code: extracts every translatable string of the files
# po/POTFILES lists (xgettext, with ncclcheck's keywords) and merges them into the PO file
# (msgmerge): new strings arrive untranslated, changed ones fuzzy. Translate those, then build:
# CMake compiles the PO file into the binary (po/po2c.py). Needs gettext (scripts/deps.sh).
#   usage: po/update.sh [OUT.pot]   (with OUT.pot: only extract, the PO file is left alone)
set -eu
cd "$(dirname "$0")/.."
pot=${1:-po/ncclcheck.pot}
# shellcheck disable=SC2046
xgettext --from-code=UTF-8 --language=C --no-wrap --sort-by-file --add-comments=TRANSLATORS: \
	--package-name=ncclcheck --msgid-bugs-address=https://github.com/ncclcheck/issues \
	-k_ -kN_ -kQ_:1,2 -kfinding_add:4 -kfinding_why:2 -kerror:1 -kwarning:1 \
	-kcli_usage_error:2 -kcli_fail:2 -kfinding_evidence:2 -kreason_verdict:3 -kev_set:2 \
	--flag=finding_add:4:c-format --flag=finding_why:2:c-format --flag=error:1:c-format \
	--flag=warning:1:c-format --flag=cli_usage_error:2:c-format --flag=cli_fail:2:c-format --flag=finding_evidence:2:c-format --flag=reason_verdict:3:c-format --flag=ev_set:2:c-format \
	--flag=_:1:pass-c-format --flag=Q_:1:pass-c-format --flag=Q_:2:pass-c-format \
	-o "$pot" $(grep -v '^#' po/POTFILES)
[ $# -gt 0 ] && exit 0
msgmerge --quiet --no-wrap --update --backup=none po/zh_CN.po "$pot"
rm -f "$pot"
