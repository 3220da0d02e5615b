#!/usr/bin/env bash
# Metamorphic robustness of `ncclcheck explain`: the same log reaches the tool through a paste, and
# a paste wraps and decorates it (mail quoting, markdown fences, CRLF, colour, HTML escaping, log
# collector prefixes, docker's json-file lines, a Python repr on one line, ...). The diagnosis must
# not depend on that. Every development row that is a HIT today (public corpus, fresh splits dev
# and dev3..dev8; never a held-out one) is rewritten by each perturbation, a pure deterministic
# function of the text, and scored again by bench/explain_corpus.sh (same id regex + fix literal).
# A perturbation that leaves a row's text as it was does not score that row (an exact copy would
# only inflate the share); the table shows how many rows it skipped.
#
#   bench/explain_perturb.sh [--ncclcheck BIN] [--rows N] [--only P1,P2] [--floor P=PCT,...] [--misses]
#     --rows N    only the first N baseline hits of each split (quick checks, ctest)
#     --floor     exit 1 when perturbation P keeps less than PCT % of its rows ('*=PCT': every
#                 perturbation without a floor of its own)
# Exits 3 when it cannot run.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${NCCLCHECK:-$here/build/release/ncclcheck}
[ -x "$bin" ] || bin=$here/build/debug/ncclcheck
rows=0 only= floors= misses=0
usage="usage: $0 [--ncclcheck BIN] [--rows N] [--only P1,P2] [--floor P=PCT,...] [--misses]"
while [ $# -gt 0 ]; do
	case $1 in
	--ncclcheck) bin=$2; shift 2 ;;
	--rows) rows=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--floor) floors=$2; shift 2 ;;
	--misses) misses=1; shift ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
[ -x "$bin" ] || { echo "cannot run: no ncclcheck binary at $bin" >&2; exit 3; }
command -v python3 >/dev/null 2>&1 || { echo "cannot run: python3 is not installed" >&2; exit 3; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scorer=$here/bench/explain_corpus.sh
fixtures=$here/tests/fixtures/logs

# The scorer reads one manifest; every row goes in as split 'dev' (all of them are development
# rows), its own split kept in the class column for the report.
score() {	# manifest -> names of the HIT rows
	"$scorer" --ncclcheck "$bin" --manifest "$1" --split dev | awk '$1 == "HIT" { print $2 }'
}

# 1. today's hits, on exact copies
python3 - "$fixtures" "$tmp" "$rows" <<'PY' || exit 3
import os, sys
fx, tmp, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
DEV = {"dev", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8"}
os.makedirs(f"{tmp}/orig")
out, count = [], {}
for tag, sub in (("p", "public"), ("f", "fresh")):
    for line in open(f"{fx}/{sub}/manifest.tsv", encoding="utf-8"):
        c = line.rstrip("\n").split("\t")
        if c[0] in ("", "file") or c[0].startswith("#"):
            continue
        split = c[7] if len(c) > 7 and c[7] else "public"
        if split not in DEV and split != "public":
            continue	# held-out rows are never opened
        count[split] = count.get(split, 0) + 1
        if limit and count[split] > limit:
            continue
        name = f"{tag}-{c[0]}"
        with open(f"{fx}/{sub}/{c[0]}", "rb") as f:
            data = f.read()
        with open(f"{tmp}/orig/{name}", "wb") as f:
            f.write(data)
        c += [""] * (8 - len(c))
        out.append("\t".join([name, c[1], split, c[3], c[4], c[5], "existing", "dev"]))
with open(f"{tmp}/orig/manifest.tsv", "w", encoding="utf-8") as f:
    f.write("file\tsource_url\tclass\tcause\texpected_id\texpected_fix\tid_status\tsplit\n")
    f.write("\n".join(out) + "\n")
PY
score "$tmp/orig/manifest.tsv" >"$tmp/base.hits"
nbase=$(wc -l <"$tmp/base.hits")
[ "$nbase" -gt 0 ] || { echo "cannot run: no row is a hit today" >&2; exit 3; }

# 2. every perturbation of every hit
python3 - "$tmp" "$only" <<'PY' || exit 3
import html, json, os, re, sys
tmp, only = sys.argv[1], sys.argv[2]
hits = set(open(f"{tmp}/base.hits").read().split())

def lines(t):
    return t.split("\n")

def per_line(t, pre):
    ls = lines(t)
    if ls and ls[-1] == "":
        return "\n".join(pre + l for l in ls[:-1]) + "\n"
    return "\n".join(pre + l for l in ls)

def wrap80(t):
    out = []
    for l in lines(t):
        while len(l) > 80:
            out.append(l[:80])
            l = l[80:]
        out.append(l)
    return "\n".join(out)

def jsonl(t):
    ls = lines(t)
    if ls and ls[-1] == "":
        ls = ls[:-1]
    out = []
    for l in ls:
        # docker's json-file driver: Go's encoder, which escapes <, > and & as \u003c...
        s = json.dumps({"log": l + "\n", "stream": "stderr", "time": "2024-05-01T10:00:00.123456789Z"},
                       ensure_ascii=False)
        out.append(s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
    return "\n".join(out) + "\n"

def curly(t):
    n = [0]
    def dq(m):
        n[0] += 1
        return "\u201c" if n[0] % 2 else "\u201d"
    return re.sub('"', dq, t).replace("'", "\u2019")

PERTS = {
    "quote": lambda t: per_line(t, "> "),
    "fence": lambda t: "Here is the log from our run:\n\n```text\n" + t.rstrip("\n") +
             "\n```\n\nAny idea what is wrong? Thanks!\n",
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "ansi": lambda t: re.sub(r"(NCCL WARN|Error)", "\x1b[1;31m\\1\x1b[0m", t),
    "html": lambda t: html.escape(t, quote=True).replace("&#x27;", "&#39;"),
    "wrap80": wrap80,
    "iso_ts": lambda t: per_line(t, "2024-05-01T10:00:00.123Z node-3 "),
    "journald": lambda t: per_line(t, "May 01 10:00:00 node-3 python[1234]: "),
    "ray": lambda t: per_line(t, "(RayWorkerWrapper pid=1890, ip=10.41.0.8) "),
    "k8s": lambda t: per_line(t, "[pod/trainer-worker-0/pytorch] "),
    "jsonl": jsonl,
    "repr": lambda t: repr(t) + "\n",
    "tabs": lambda t: t.replace("\t", "    "),
    "bom": lambda t: "\ufeff" + t,
    "curly": curly,
}
names = [n for n in PERTS if not only or n in only.split(",")]
man = open(f"{tmp}/orig/manifest.tsv", encoding="utf-8").read().split("\n")
head, rows = man[0], [r for r in man[1:] if r and r.split("\t")[0] in hits]
skipped = {}
for n in names:
    os.makedirs(f"{tmp}/{n}")
    keep = []
    for r in rows:
        name = r.split("\t")[0]
        text = open(f"{tmp}/orig/{name}", "rb").read().decode("utf-8", "surrogateescape")
        new = PERTS[n](text)
        assert PERTS[n](text) == new, f"{n} is not deterministic"
        if new == text:
            skipped[n] = skipped.get(n, 0) + 1
            continue
        with open(f"{tmp}/{n}/{name}", "wb") as f:
            f.write(new.encode("utf-8", "surrogateescape"))
        keep.append(r)
    with open(f"{tmp}/{n}/manifest.tsv", "w", encoding="utf-8") as f:
        f.write(head + "\n" + "\n".join(keep) + ("\n" if keep else ""))
with open(f"{tmp}/perts", "w") as f:
    for n in names:
        f.write(f"{n}\t{skipped.get(n, 0)}\n")
PY

echo "baseline: $nbase development rows are hits today"
printf '%-10s %6s %6s %8s\n' perturb kept rows skipped
fail=0
while IFS=$'\t' read -r p skip; do
	n=$(($(grep -c . "$tmp/$p/manifest.tsv") - 1))
	if [ "$n" -le 0 ]; then
		printf '%-10s %6s %6s %8s\n' "$p" - 0 "$skip"
		continue
	fi
	score "$tmp/$p/manifest.tsv" >"$tmp/$p.hits"
	k=$(wc -l <"$tmp/$p.hits")
	pc=$((k * 100 / n))
	printf '%-10s %6d %6d %8d   %3d%%\n' "$p" "$k" "$n" "$skip" "$pc"
	if [ $misses = 1 ]; then
		cut -f1 "$tmp/$p/manifest.tsv" | tail -n +2 | grep -vxFf "$tmp/$p.hits" | sed 's/^/    lost: /'
	fi
	floor=	# its own floor, else '*'
	for fl in ${floors//,/ }; do
		case ${fl%%=*} in "$p") floor=${fl#*=} ;; '*') floor=${floor:-${fl#*=}} ;; esac
	done
	if [ -n "$floor" ] && [ "$pc" -lt "$floor" ]; then
		echo "  $p keeps $pc % of its rows, below the floor of $floor %" >&2
		fail=1
	fi
done <"$tmp/perts"
exit $fail
