#!/usr/bin/env python3
"""screen_check.py FILE WIDTH: what a person sees of a terminal capture (the text after each line's
last carriage return, escape sequences taken out), checked: no line wider than WIDTH columns.
Prints the visible lines, then 'first verdict line: N' (1-based, 0 when none) and exits 1 when a
line is too wide."""
import re
import sys

raw = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
width = int(sys.argv[2])
esc = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
bad = 0
verdict = 0
lines = raw.replace("\r\n", "\n").split("\n")
for i, line in enumerate(lines, 1):
    seen = esc.sub("", line.split("\r")[-1])
    print(seen)
    if len(seen) > width:
        print(f"TOO WIDE ({len(seen)} > {width}) at line {i}", file=sys.stderr)
        bad = 1
    if not verdict and seen.startswith("verdict:"):
        verdict = i
print(f"first verdict line: {verdict}")
sys.exit(bad)
