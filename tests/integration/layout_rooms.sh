#!/bin/bash
# The rooms hold what README's layout says (issue #22's acceptance): findings are made only by
# judgements (rules/, explain/, attach/ and the finding module itself), the model stands on no
# rule, orchestration or measurement header, measurements include no rule, and the cluster and
# link renderers live in report/. Reads the sources; each check names the offending lines.
set -u
. "$SRCDIR/tests/integration/lib.sh"
cd "$SRCDIR/src" || { fail "no src/ under $SRCDIR"; finish; }

# a call, not a mention in a comment ("finding_add(" inside /* ... */ lines starting with " *")
out=$(grep -rn --include='*.c' --include='*.h' 'finding_add(' . |
	grep -v -E '^\./(rules|explain|attach)/|^\./finding\.[ch]:' | grep -v -E ':[0-9]+:\s*(/?\*|//)')
expect_match "${out:-none}" '^none$' "finding_add( is called only under rules/, explain/, attach/ and finding.c"

out=$(grep -rn -E '#include "(rules|cluster|link|net|rdv|cmd|launch|coll)/' model/ --include='*.h')
expect_match "${out:-none}" '^none$' "no header under model/ includes a rules/, orchestration or measurement header"

out=$(grep -rn -E '#include "rules/' link/ net/ rdv/)
expect_match "${out:-none}" '^none$' "link/, net/ and rdv/ measure and carry: they include no rules/ header"

for fn in cluster_report_text link_result_text; do
	out=$(grep -rln -E "^[a-z].*\\b$fn\\(.*\\)$" --include='*.c' . | tr '\n' ' ')
	expect_match "$out" '^\./report/[a-z_]+\.c $' "$fn is defined in report/ ($out)"
done
# the renderers and the orchestration print nothing of their own about links: text is report/'s
out=$(grep -rln 'strbuf_addf' cluster/ link/ | tr '\n' ' ')
expect_match "${out:-none}" '^none$' "cluster/ and link/ build no text for people"
finish
