#!/bin/bash
# The Chinese messages (#28): po/zh_CN.po passes `msgfmt -c` (every c-format msgstr takes the
# msgid's arguments), every translatable string of the files po/POTFILES lists has a zh_CN entry
# (xgettext with po/update.sh's keywords, compared with msgcmp), and the binary speaks Chinese
# when asked (--lang zh, LANG=zh_CN.UTF-8), English otherwise (--lang en beats the
# environment), with --json the same document in both but for "lang".
set -u
. "$SRCDIR/tests/integration/lib.sh"
command -v msgfmt >/dev/null && command -v xgettext >/dev/null && command -v msgcmp >/dev/null ||
	{ fail "no msgfmt/xgettext/msgcmp: apt-get install gettext (scripts/deps.sh)"; finish; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$(msgfmt -c --statistics -o /dev/null "$SRCDIR/po/zh_CN.po" 2>&1); expect_rc 0 $? "msgfmt -c po/zh_CN.po: $out"
expect_no_match "$out" "untranslated|fuzzy" "no untranslated or fuzzy entry in po/zh_CN.po ($out)"

"$SRCDIR/po/update.sh" "$tmp/ncclcheck.pot"; expect_rc 0 $? "po/update.sh extracts the POTFILES' strings"
out=$(msgcmp "$SRCDIR/po/zh_CN.po" "$tmp/ncclcheck.pot" 2>&1); rc=$?
expect_rc 0 $rc "every string po/POTFILES' files mark has a zh_CN entry$([ $rc = 0 ] || printf '\n%s' "$(echo "$out" | head -20)")"

zh=$(LANG=zh_CN.UTF-8 LC_ALL= LC_MESSAGES= "$NCCLCHECK" --help)
expect_match "$zh" "^用法：ncclcheck" "LANG=zh_CN.UTF-8: ncclcheck --help is Chinese"
expect_match "$("$NCCLCHECK" --lang zh --help)" "^用法：" "--lang zh"
expect_match "$("$NCCLCHECK" --lang=zh node --help)" "^用法：ncclcheck node" "--lang=zh node --help"
expect_match "$(LANG=zh_CN.UTF-8 "$NCCLCHECK" --lang en --help)" "^usage: ncclcheck" "--lang en beats LANG"
expect_match "$(LC_ALL=C LANG=zh_CN.UTF-8 "$NCCLCHECK" --help)" "^usage: ncclcheck" "LC_ALL=C beats LANG"
wide=$(printf '%s\n' "$zh" | python3 -c 'import sys,unicodedata as u; print(max(sum(2 if u.east_asian_width(c) in "WF" else 1 for c in l.rstrip("\n")) for l in sys.stdin))')
[ "$wide" -le 100 ] && pass "the Chinese --help fits 100 columns ($wide)" || fail "the Chinese --help is $wide columns wide"
err=$("$NCCLCHECK" --lang xx node 2>&1); expect_rc 2 $? "--lang xx is a usage error"
expect_match "$err" "--lang wants zh or en, not 'xx'" "--lang xx says what it wants"
err=$(LANG=zh_CN.UTF-8 "$NCCLCHECK" node --bogus 2>&1); expect_rc 2 $? "an unknown option in Chinese: exit 2"
expect_match "$err" "^ncclcheck：错误：'node' 没有选项 '--bogus'" "the usage error is Chinese: $err"

# --json: English keys and values whatever the language; only "lang" is added
facts="$FIXTURES/facts/stack-ci-debian.json"
"$NCCLCHECK" node --facts "$facts" --json > "$tmp/en.json"; rc_en=$?
LANG=zh_CN.UTF-8 "$NCCLCHECK" node --facts "$facts" --json > "$tmp/zh.json"; rc_zh=$?
expect_rc $rc_en $rc_zh "the same exit code in Chinese"
same=$(python3 - "$tmp/en.json" "$tmp/zh.json" <<'PY'
import json, sys
en, zh = (json.load(open(p)) for p in sys.argv[1:])
ok = "lang" not in en and zh.pop("lang", None) == "zh_CN" and en == zh
print("same" if ok else "differs")
PY
)
expect_match "$same" "^same$" "--json is the same document in Chinese, plus \"lang\": \"zh_CN\""
text=$(LANG=zh_CN.UTF-8 "$NCCLCHECK" node --facts "$facts" --no-color)
expect_match "$text" "项检查通过" "node's text report ends in a Chinese summary line"
"$NCCLCHECK" --lang zh node --facts "$facts" --json | jq -e '.error' >/dev/null 2>&1 &&
	fail "a report is not an error document" || pass "--lang zh node --json is a report"
# --html: the page in the reader's language (its lang attribute, headings, the findings), the same
# page in English without LANG
LANG=zh_CN.UTF-8 "$NCCLCHECK" node --facts "$facts" --html "$tmp/zh.html" >/dev/null
"$NCCLCHECK" node --facts "$facts" --html "$tmp/en.html" >/dev/null
page=$(cat "$tmp/zh.html")
expect_match "$page" '<html lang="zh-CN">' "LANG=zh_CN.UTF-8: the HTML page says lang=zh-CN"
expect_match "$page" "<h2>结论</h2>" "the HTML verdict heading is Chinese"
expect_match "$page" "<h2>发现</h2>" "the HTML findings heading is Chinese"
expect_match "$page" "<p class=\"headline\">没有错误" "the HTML verdict line is Chinese"
expect_match "$page" "badge b-ok\">通过</span>" "the HTML findings carry Chinese badges and titles"
expect_no_match "$page" "<h2>(Verdict|Findings|This node)</h2>" "no English heading on the Chinese page"
expect_match "$(cat "$tmp/en.html")" '<html lang="en">.*' "without LANG the page is English"
expect_match "$(cat "$tmp/en.html")" "<h2>Verdict</h2>" "the English page keeps its headings"

# explain's verdicts (tables and rules) in Chinese; its --json stays the English document
log="$FIXTURES/logs/signatures.log"
ex=$(LANG=zh_CN.UTF-8 "$NCCLCHECK" explain "$log" --no-color 2>&1)
expect_match "$ex" "^错误   NCCL_SOCKET_IFNAME=eth9 匹配不到任何处于 up 状态的网卡" "explain's rule title is Chinese"
expect_match "$ex" "^错误   两个进程使用了同一个 NCCL rank（" "a signature's title, its {} filled, is Chinese"
expect_match "$ex" "原因： 高置信度：" "explain's reasons are Chinese"
expect_match "$ex" "# 本节点实际拥有的网卡名和地址" "a fix comment is Chinese, the command before it as it was"
# every title Chinese; every line with Chinese in it within 100 columns (CJK counts two); a
# command alone may be wider, in English too (a pasted fix runs as written)
read -r english wide < <(printf '%s\n' "$ex" | python3 -c '
import re, sys, unicodedata as u
cjk = re.compile("[\u4e00-\u9fff]")
lines = sys.stdin.read().splitlines()
titles = [l for l in lines if re.match("(错误|警告|信息|正常) ", l)]
width = [sum(2 if u.east_asian_width(c) in "WF" else 1 for c in l) for l in lines if cjk.search(l)]
print(sum(1 for t in titles if not cjk.search(t)), max(width or [0]))')
[ "$english" = 0 ] && pass "every explain title is Chinese" || fail "$english explain titles are English"
[ "$wide" -le 100 ] && pass "explain's Chinese lines fit 100 columns ($wide)" || fail "an explain line in Chinese is $wide columns wide"
"$NCCLCHECK" explain "$log" --json > "$tmp/ex-en.json"
"$NCCLCHECK" --lang zh explain "$log" --json > "$tmp/ex-zh.json"
same=$(python3 - "$tmp/ex-en.json" "$tmp/ex-zh.json" <<'PY'
import json, sys
en, zh = (json.load(open(p)) for p in sys.argv[1:])
print("same" if "lang" not in en and zh.pop("lang", None) == "zh_CN" and en == zh else "differs")
PY
)
expect_match "$same" "^same$" "explain --json is the same document in Chinese, plus \"lang\""
# config's outputs: every comment a person reads is Chinese (the headers, the reasons after
# "# <finding id>: ", the notes, the placeholders), the exports and commands as they are, the
# scripts still valid shell; under each cloud profile (recommend.c's and profile.c's notes and
# reasons), for a node document and for a cluster one (per-node settings, mpirun's interfaces)
for cloud in generic autodl aws aliyun azure gcp oci; do
	for from in facts/cluster/lab-n0.json html/cluster_2_blocked.json; do
		out="$tmp/cfg-$cloud-$(basename "$from" .json)"
		LANG=zh_CN.UTF-8 "$NCCLCHECK" config --from "$FIXTURES/$from" --nodes 2 --cloud "$cloud" \
			--out "$out" >/dev/null 2>&1
		bad=
		for f in "$out"/*.sh "$out"/*.env "$out"/*.sbatch; do
			sh -n "$f" || bad="$bad $(basename "$f")"
		done
		[ -z "$bad" ] && pass "config's Chinese scripts are valid shell ($cloud, $from)" ||
			fail "config's Chinese scripts are not valid shell ($cloud, $from):$bad"
		bad=$(for f in "$out"/*; do
			[ "${f##*/}" = recommendation.json ] && continue
			python3 "$SRCDIR/tests/integration/zh_lines.py" "$f" | grep ': English: ' |
				sed "s|^|${f##*/}:|"
		done)
		[ -s "$out/ncclcheck.env" ] && [ -z "$bad" ] &&
			pass "no English prose in config's Chinese outputs ($cloud, $from)" ||
			fail "English prose in config's Chinese outputs ($cloud, $from):$(printf '\n%s' "$bad" | head -8)"
	done
	LANG=zh_CN.UTF-8 "$NCCLCHECK" config --from "$FIXTURES/facts/cluster/lab-n0.json" --env \
		--cloud "$cloud" > "$tmp/zh-$cloud.env" 2>/dev/null
done
env_zh=$(cat "$tmp/zh-aws.env")
expect_match "$env_zh" "^# ncclcheck config：本作业每个节点的环境变量" "the env file's header is Chinese"
expect_match "$env_zh" "^# 有意没有写入的设置" "the env file's notes heading is Chinese"
expect_match "$env_zh" "^export NCCL_SOCKET_IFNAME=" "the exports stay as they are"
env_en=$("$NCCLCHECK" config --from "$FIXTURES/facts/cluster/lab-n0.json" --env --cloud aws 2>/dev/null)
expect_match "$env_en" "^# ncclcheck config: the environment for every node of this job" "the English env file keeps its header"
expect_match "$env_en" "^# Not written, on purpose, or to check by hand:" "the English env file keeps its notes heading"
bad=$(printf '%s\n' "$env_en" | grep -c '[^ -~]' | grep -v '^0$')
[ -z "$bad" ] && pass "the English env file has no Chinese" || fail "the English env file has $bad lines of Chinese"
"$NCCLCHECK" config --from "$FIXTURES/facts/cluster/lab-n0.json" --json --cloud aws > "$tmp/cfg-en.json" 2>/dev/null
LANG=zh_CN.UTF-8 "$NCCLCHECK" config --from "$FIXTURES/facts/cluster/lab-n0.json" --json --cloud aws > "$tmp/cfg-zh.json" 2>/dev/null
same=$(python3 - "$tmp/cfg-en.json" "$tmp/cfg-zh.json" <<'PY'
import json, sys
en, zh = (json.load(open(p)) for p in sys.argv[1:])
print("same" if "lang" not in en and zh.pop("lang", None) == "zh_CN" and en == zh else "differs")
PY
)
expect_match "$same" "^same$" "config --json (the recommendation, the files' content) stays English in Chinese"
# the HTML pages of every verb (tests/fixtures/html: bench, cluster, explain, attach) in Chinese:
# no English prose outside <code>/<pre> (commands, log lines), tooltips included; the sentences
# with figures in them are whole formats (html_sentence), so none comes out half English
for doc in "$FIXTURES"/html/*.json; do
	name=$(basename "$doc" .json)
	LANG=zh_CN.UTF-8 "$NCCLCHECK" report "$doc" --html "$tmp/zh-$name.html" >/dev/null 2>&1
	python3 "$SRCDIR/tests/integration/html_text.py" "$tmp/zh-$name.html" > "$tmp/zh-$name.txt"
	bad=$(python3 "$SRCDIR/tests/integration/zh_lines.py" "$tmp/zh-$name.txt" | grep ': English: ')
	[ -s "$tmp/zh-$name.txt" ] && [ -z "$bad" ] && pass "no English prose on the Chinese $name page" ||
		fail "English prose on the Chinese $name page:$(printf '\n%s' "$bad" | head -6)"
done
expect_match "$(cat "$tmp/zh-bench_sweep.txt")" "^all_reduce_perf，后端 tcp；平均 busbw [0-9.]+ GB/s" \
	"bench's headline is one Chinese sentence around its figures"
expect_match "$(grep -c 'class="n" data-j="/bench/average_bus_bandwidth/bandwidth"' "$tmp/zh-bench_sweep.html")" \
	"^1$" "the Chinese headline keeps its figure's span (html_check.py finds it)"

err=$(LANG=zh_CN.UTF-8 "$NCCLCHECK" node --facts /nonexistent --json 2>/dev/null)
expect_match "$(echo "$err" | jq -r .error)" "^[ -~]+$" "an error document's \"error\" stays English: $err"
finish
