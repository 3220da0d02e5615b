#!/bin/bash
# The HTML report in a real browser (Debian's chromium, headless): fixture documents (a 2-node
# blocked lab, 16 and 64 nodes made by make_cluster.py from its shape, the GPU machine's product
# runs, a bench sweep, a multi-rank explain whose log holds <script>, attach from flight-recorder
# dumps and from RAS) rendered by 'ncclcheck report', parsed by the browser (--dump-dom) and
# checked by html_check.py: every
# figure equals the document's, every matrix cell and port-map row is a link test of it, no
# script element, the log's <script> shows as text. Layout: a copy of the page with the test's
# own probe script (never in the product page, whose CSP forbids scripts) lists what is wider
# than its box after layout. A 64-node page is at most 2 MB. Screenshots go to
# $BUILDDIR/html-report/ for a person to look at.
# ctest: timeout 900
set -u
. "$SRCDIR/tests/integration/lib.sh"
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
	echo "SKIP: chromium is not installed (scripts/deps.sh --test installs it): the HTML report" \
		"is not checked in a browser"
	exit 77
fi
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
F=$FIXTURES/html
SHOTS=$BUILDDIR/html-report
mkdir -p "$SHOTS"
failures=0
# chromium as root needs --no-sandbox; nothing it loads leaves the machine (file:// only)
browse() { timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--no-first-run --disable-extensions --user-data-dir="$T/profile" "$@" 2>/dev/null; }
PROBE='<script>addEventListener("load",function(){var bad=[];
document.querySelectorAll("html,body *").forEach(function(e){
if(e.closest&&e.closest(".scroll"))return;
if(e instanceof SVGElement&&!(e instanceof SVGSVGElement))return;
var s=getComputedStyle(e);if(s.overflowX!=="visible"&&e.tagName!=="HTML")return;
if(e.clientWidth>0&&e.scrollWidth>e.clientWidth+1)
bad.push(e.tagName+(e.id?"#"+e.id:"")+"."+e.className+" "+e.scrollWidth+">"+e.clientWidth);});
var p=document.createElement("pre");p.id="overflow-report";
p.setAttribute("data-bg",getComputedStyle(document.body).backgroundColor);
p.textContent=bad.length?bad.join("\n"):"none";document.body.appendChild(p);});</script>'

python3 "$F/make_cluster.py" "$F/cluster_2_blocked.json" 16 "$T/cluster_16.json" --hostile ||
	fail "make_cluster 16"
python3 "$F/make_cluster.py" "$F/cluster_2_blocked.json" 64 "$T/cluster_64.json" || fail "make_cluster 64"
python3 "$F/make_cluster.py" "$F/cluster_2_blocked.json" 64 "$T/cluster_64_allpairs.json" \
	--all-pairs || fail "make_cluster 64 --all-pairs"
docs="$F/cluster_2_blocked.json $T/cluster_16.json $T/cluster_64.json $T/cluster_64_allpairs.json
	$F/bench_sweep.json $F/explain_ranks.json $F/attach_fr.json $F/attach_ras.json
	$FIXTURES/gpu/product/*.cluster.n0.json"
for doc in $docs; do
	name=$(basename "$doc" .json)
	"$NCCLCHECK" report "$doc" --html "$T/$name.html"; expect_rc 0 $? "$name: report --html"
	size=$(stat -c %s "$T/$name.html")
	echo "$name: $size bytes"
	case $name in cluster_64*)
		[ "$size" -le 2097152 ] && pass "$name: page of $size bytes <= 2 MB" ||
			fail "$name: page of $size bytes > 2 MB";;
	esac
	browse --dump-dom "file://$T/$name.html" >"$T/$name.dom"
	[ -s "$T/$name.dom" ] || { fail "$name: chromium dumped no DOM"; continue; }
	PROBE=$PROBE python3 -c 'import os, sys
page = open(sys.argv[1], encoding="utf-8").read()
page = "\n".join(l for l in page.split("\n") if "Content-Security-Policy" not in l)
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", os.environ["PROBE"] + "</body>"))
' "$T/$name.html" "$T/$name.probe.html"
	browse --run-all-compositor-stages-before-draw --virtual-time-budget=5000 \
		--window-size=1280,1000 --dump-dom "file://$T/$name.probe.html" >"$T/$name.probe.dom"
	out=$(python3 "$SRCDIR/tests/integration/html_check.py" "$doc" "$T/$name.dom" \
		"$T/$name.probe.dom" 2>&1) && pass "$name: $(echo "$out" | tail -1)" ||
		fail "$name: $out"
	case $name in cluster_2_blocked|cluster_16|bench_sweep|explain_ranks|attach_fr|attach_ras)
		rm -f "$SHOTS/$name.png"
		(cd "$T" && browse --window-size=1280,2400 --screenshot="$SHOTS/$name.png" \
			"file://$T/$name.html" >/dev/null)
		[ "$(stat -c %s "$SHOTS/$name.png" 2>/dev/null || echo 0)" -gt 20000 ] &&
			pass "$name: screenshot" || fail "$name: no screenshot";;
	esac
done
# dark mode (the viewer's prefers-color-scheme) and print
name=cluster_2_blocked
browse --blink-settings=preferredColorScheme=0 --virtual-time-budget=5000 --dump-dom \
	"file://$T/$name.probe.html" >"$T/dark.dom"
expect_match "$(grep -o 'data-bg="[^"]*"' "$T/dark.dom")" 'rgb\(13, 17, 23\)' \
	"dark mode: the page's background turns dark"
expect_match "$(grep -o 'data-bg="[^"]*"' "$T/$name.probe.dom")" 'rgb\(255, 255, 255\)' \
	"light mode: white"
browse --print-to-pdf="$T/$name.pdf" "file://$T/$name.html" >/dev/null
[ "$(head -c 4 "$T/$name.pdf" 2>/dev/null)" = "%PDF" ] && [ "$(stat -c %s "$T/$name.pdf")" -gt 10000 ] &&
	pass "prints (PDF of $(stat -c %s "$T/$name.pdf") bytes)" || fail "print to PDF"
# --html on a verb: the page of the very document --json prints, written beside it
(cd "$F" && "$NCCLCHECK" explain --json --html "$T/verb.html" logs >"$T/verb.json"); rc=$?
expect_rc 1 $rc "explain --json --html: the findings' exit code"
browse --dump-dom "file://$T/verb.html" >"$T/verb.dom"
out=$(python3 "$SRCDIR/tests/integration/html_check.py" "$T/verb.json" "$T/verb.dom" 2>&1) &&
	pass "explain --html: $(echo "$out" | tail -1)" || fail "explain --html: $out"
"$NCCLCHECK" explain --html "$T/nodir/x.html" "$F/logs" >/dev/null 2>"$T/err"
expect_rc 3 $? "explain --html into a directory that does not exist: exit 3"
expect_match "$(cat "$T/err")" "--html: cannot write" "and says why"
# node and bench (two ranks over loopback, --compare a lab sweep) with --json --html: the page is
# the printed document's
"$NCCLCHECK" node --no-python --json --html "$T/node.html" >"$T/node.json"
rc=$?; [ $rc -le 1 ] && pass "node --json --html (exit $rc)" || fail "node --json --html: exit $rc"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
timeout 60 "$NCCLCHECK" bench allreduce --backend tcp --nodes 2 --node-rank 1 \
	--master "127.0.0.1:$port" -b 64K -e 1M -f 4 -n 2 >/dev/null 2>&1 &
bpid=$!
timeout 60 "$NCCLCHECK" bench allreduce --backend tcp --nodes 2 --node-rank 0 \
	--master "127.0.0.1:$port" -b 64K -e 1M -f 4 -n 2 --json --html "$T/bench.html" \
	--compare "$F/bench_sweep.json" >"$T/bench.json"
rc=$?; wait $bpid
[ $rc -le 1 ] && pass "bench --json --html (exit $rc)" || fail "bench --json --html: exit $rc"
for v in node bench; do
	cmp=""; [ $v = bench ] && cmp=$F/bench_sweep.json	# bench --compare: its points too
	out=$(HTML_COMPARE=$cmp python3 "$SRCDIR/tests/integration/html_check.py" "$T/$v.json" \
		"$T/$v.html" 2>&1) && pass "$v --html: $(echo "$out" | tail -1)" || fail "$v --html: $out"
done
"$NCCLCHECK" bench allreduce --nodes 2 --node-rank 0 --master 127.0.0.1:1 \
	--compare "$F/bench_sweep.json" >/dev/null 2>"$T/err"
expect_rc 2 $? "bench --compare without --html: a usage error, before any run"
expect_match "$(grep -c '<polyline class="l-bus"' "$T/bench.html")" '^[1-9]' "bench --html draws busbw"
# bench --compare: a second lab sweep's busbw drawn over the first, each point its figure
"$NCCLCHECK" report "$F/bench_sweep.json" --compare "$F/bench_sweep_b.json" --html "$T/cmp.html"
expect_rc 0 $? "report --compare"
browse --dump-dom "file://$T/cmp.html" >"$T/cmp.dom"
out=$(HTML_COMPARE="$F/bench_sweep_b.json" python3 "$SRCDIR/tests/integration/html_check.py" \
	"$F/bench_sweep.json" "$T/cmp.dom" 2>&1) && pass "--compare: $(echo "$out" | tail -1)" ||
	fail "--compare: $out"
(cd "$T" && browse --window-size=1280,1000 --screenshot="$SHOTS/bench_compare.png" \
	"file://$T/cmp.html" >/dev/null)
"$NCCLCHECK" report "$F/bench_sweep.json" --compare "$F/attach_fr.json" --html "$T/x.html" 2>"$T/err"
expect_rc 3 $? "report --compare with a document that has no bench results"
expect_match "$(cat "$T/err")" "no bench results to compare with" "and says so"
# bad input: a clear error and exit 3, never a page
"$NCCLCHECK" report "$T/none.json" --html "$T/y.html" 2>"$T/err"; expect_rc 3 $? "report: a missing file"
echo '{"x": 1}' >"$T/notdoc.json"
"$NCCLCHECK" report "$T/notdoc.json" --html "$T/y.html" 2>"$T/err"; expect_rc 3 $? "report: not a document"
expect_match "$(cat "$T/err")" 'not an ncclcheck --json document' "and says so"
[ ! -e "$T/y.html" ] && pass "no page written for bad input" || fail "a page was written for bad input"
# the hostile strings: text in the browser's DOM, never an element
expect_match "$(grep -c '&lt;script&gt;alert(.log.)&lt;/script&gt;' "$T/explain_ranks.dom")" '^[1-9]' \
	"explain: the log's <script> is text"
expect_match "$(grep -c '&lt;script&gt;alert(1)&lt;/script&gt;' "$T/cluster_16.dom")" '^[1-9]' \
	"cluster: a node named <script> is text"
finish
