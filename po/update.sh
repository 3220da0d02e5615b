#!/bin/sh
# Brings po/zh_CN.po up to date with the code: extracts every translatable string of the files
# po/POTFILES lists (xgettext, with ncclcheck's keywords) and merges them into the PO file
# (msgmerge): new strings arrive untranslated, changed ones fuzzy. Translate those, then build:
# CMake compiles the PO file into the binary (po/po2c.py). Needs gettext (scripts/deps.sh).
# explain's verdicts are table rows that no call passes to a keyword: po/explain_msgids.py takes
# their .title, .cause and .fix from the preprocessed src/explain/sigs.c (a C compiler: $CC).
#   usage: po/update.sh [OUT.pot]   (with OUT.pot: only extract, the PO file is left alone)
set -eu
cd "$(dirname "$0")/.."
pot=${1:-po/ncclcheck.pot}
# shellcheck disable=SC2046
xgettext --from-code=UTF-8 --language=C --no-wrap --sort-by-file --add-comments=TRANSLATORS: \
	--package-name=ncclcheck --msgid-bugs-address=https://github.com/ncclcheck/issues \
	-k_ -kN_ -kQ_:1,2 -kfinding_add:4 -kfinding_why:2 -kerror:1 -kwarning:1 \
	-kcli_usage_error:2 -kcli_fail:2 -kfinding_evidence:2 -kreason_verdict:3 -kev_set:2 \
	-krs_title:2 -kerr_set:3 -kerr_sys:2 -kerr_prefix:2 -krec_note:2 -kset_status:3 -kworker_fail:3 \
	-krdv_add_event:7 -kstranger_event:5 -knote_fail:3 -kras_diag_ask_skip:2 -kfr_bad:2 \
	-klab_plan_fault:3 -klint_add:5 \
	--flag=finding_add:4:c-format --flag=finding_why:2:c-format --flag=error:1:c-format \
	--flag=warning:1:c-format --flag=cli_usage_error:2:c-format --flag=cli_fail:2:c-format \
	--flag=finding_evidence:2:c-format --flag=reason_verdict:3:c-format --flag=ev_set:2:c-format \
	--flag=rs_title:2:c-format --flag=err_set:3:c-format --flag=err_sys:2:c-format \
	--flag=err_prefix:2:c-format --flag=rec_note:2:c-format --flag=set_status:3:c-format --flag=worker_fail:3:c-format \
	--flag=rdv_add_event:7:c-format --flag=stranger_event:5:c-format --flag=note_fail:3:c-format \
	--flag=ras_diag_ask_skip:2:c-format --flag=fr_bad:2:c-format \
	--flag=lab_plan_fault:3:c-format --flag=lint_add:5:c-format \
	--flag=_:1:pass-c-format --flag=Q_:1:pass-c-format --flag=Q_:2:pass-c-format \
	-o "$pot.calls" $(grep -v '^#' po/POTFILES)
# explain's fix lines, rows and rs_fix() formats alike: the comment's words, or a line of prose
if grep -qx 'src/explain/sigs.c' po/POTFILES; then
	${CC:-cc} -E -P -Isrc src/explain/sigs.c | python3 po/explain_msgids.py > "$pot.tables"
	# shellcheck disable=SC2046
	xgettext --from-code=UTF-8 --language=C --no-wrap -krs_fix:2 --flag=rs_fix:2:c-format \
		-o "$pot.fix" $(grep '^src/explain/' po/POTFILES)
	python3 po/explain_msgids.py --calls "$pot.fix" > "$pot.fixes"
	msgcat --use-first --no-wrap -o "$pot" "$pot.calls" "$pot.tables" "$pot.fixes"
else
	cp "$pot.calls" "$pot"
fi
rm -f "$pot.calls" "$pot.tables" "$pot.fix" "$pot.fixes"
[ $# -gt 0 ] && exit 0
msgmerge --quiet --no-wrap --update --backup=none po/zh_CN.po "$pot"
rm -f "$pot"
