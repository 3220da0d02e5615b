#!/usr/bin/env python3
"""html_check.py DOC.json DOM.html [OVERFLOW.html]: the HTML report against its JSON document.

DOM.html is what `chromium --headless --dump-dom` made of the page (the browser's parse, not the
file). Checks: no <script> element and no event-handler attribute anywhere; every figure
(span.n[data-j]) equals the document's value at its JSON pointer, printed as the JSON prints it;
every reachability cell and port-map row is one link test of the document, with its status and
intervals; every bench point's tooltip holds the document's figures; the verdict is first.
OVERFLOW.html (the page with the test's own probe script, dumped after layout) lists the
elements whose content is wider than their box outside a scroll box: there must be none.
Prints one line per failure; exits 1 on any.
"""
import json
import os
import re
import sys
from html.parser import HTMLParser

fails = []


def fail(msg):
    fails.append(msg)
    print("FAIL: " + msg)


def num(v):
    """A number as the page prints it: %lld, or %.6g for a real."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int):
        return str(v)
    return "%.6g" % v


def pointer(doc, ptr):
    cur = doc
    for part in ptr.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        cur = cur[int(part)] if isinstance(cur, list) else cur[part]
    return cur


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.elems = []  # (tag, attrs, text parts list)
        self.text = []

    def handle_starttag(self, tag, attrs):
        e = (tag, dict(attrs), [])
        self.elems.append(e)
        if tag not in ("br", "meta", "line", "rect", "circle", "polyline", "img", "input",
                       "link"):
            self.stack.append(e)

    def handle_startendtag(self, tag, attrs):
        self.elems.append((tag, dict(attrs), []))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        self.text.append(data)
        for e in self.stack:
            e[2].append(data)


def text(e):
    return "".join(e[2])


def main():
    doc = json.load(open(sys.argv[1]))
    dom = Dom()
    dom.feed(open(sys.argv[2], encoding="utf-8").read())
    alltext = "".join(dom.text)
    nfig = 0

    for tag, attrs, _ in dom.elems:
        if tag == "script":
            fail("a <script> element in the page")
        for a in attrs:
            if a.startswith("on"):
                fail("an event-handler attribute %s on <%s>" % (a, tag))
    ids = [a.get("id") for t, a, _ in dom.elems if t == "section"]
    if not ids or ids[0] != "verdict":
        fail("the verdict is not the first section: %s" % ids[:3])
    # every figure is the document's
    for e in dom.elems:
        attrs = e[1]
        if "data-j" not in attrs:
            continue
        try:
            want = num(pointer(doc, attrs["data-j"]))
        except (KeyError, IndexError, ValueError):
            fail("data-j %s is not in the document" % attrs["data-j"])
            continue
        nfig += 1
        if text(e) != want:
            fail("%s shows %r, the document has %r" % (attrs["data-j"], text(e), want))
    links = doc.get("links", [])
    # the reachability matrix: one cell per connect test, its status the test's
    cells = [(e[1], text(e)) for e in dom.elems if e[0] == "td" and "data-l" in e[1]]
    ncon = sum(1 for l in links if l.get("test") == "connect")
    if doc.get("verb") == "cluster" and len(cells) != ncon:
        fail("%d matrix cells for %d connect tests" % (len(cells), ncon))
    def slow(l):
        """A root warning or error of the document calls this pair slow (either way round)."""
        for f in doc.get("findings", []):
            if f["id"] not in ("link.latency", "link.bw.slow_link", "link.bw.slow_pair"):
                continue
            if "caused_by" in f or f["severity"] not in ("warn", "error"):
                continue
            if {f.get("node"), f.get("peer")} == {l["target_name"], l["peer_name"]} and \
                    f.get("ifname") == l["ifname"]:
                return True
        return False

    nslow = 0
    for a, _ in cells:
        l = links[int(a["data-l"])]
        r = l.get("result") or {}
        st = r.get("status") if l.get("ran") else "error"
        if st == "ok" and slow(l):
            st = "slow"
            nslow += 1
        cls = a.get("class", "")
        if "st-%s" % st not in cls.split():
            fail("cell of links[%s] is %r, the document says %s" % (a["data-l"], cls, st))
        title = a.get("title", "")
        if l.get("peer_name") not in title or l.get("target_name") not in title:
            fail("cell of links[%s]: its tooltip %r does not name the pair" % (a["data-l"], title))
        if st == "ok":
            for k in ("p50", "p99"):
                if num(r["rtt_us"][k]) not in title:
                    fail("cell of links[%s]: rtt %s %s not in %r" % (a["data-l"], k,
                                                                     num(r["rtt_us"][k]), title))
    # the port map: one row per scan that ran, its intervals the scan's
    rows = [a for t, a, _ in dom.elems if t == "g" and "data-l" in a]
    nscan = sum(1 for l in links if l.get("test") == "scan" and l.get("ran"))
    if doc.get("verb") == "cluster" and len(rows) != nscan:
        fail("%d port-map rows for %d scans" % (len(rows), nscan))
    titles = [text(e) for e in dom.elems if e[0] == "title"]
    for a in rows:
        l = links[int(a["data-l"])]
        for iv in l["result"].get("intervals", []):
            want = "%d-%d %s" % (iv["lo"], iv["hi"], iv["state"])
            if want not in titles:
                fail("port map of links[%s] lacks %s" % (a["data-l"], want))
    # bench: every point's tooltip is the document's figure
    for i, r in enumerate(doc.get("bench", {}).get("results", [])):
        for place in ("out_of_place", "in_place"):
            for what, label in (("alg_bw", "algbw"), ("bus_bw", "busbw")):
                if what not in r.get(place, {}):
                    continue
                want = "%s bytes: %s, %s %s GB/s" % (num(r["size"]), label,
                                                    place.replace("_", " "), num(r[place][what]))
                if want not in titles:
                    fail("bench point %s not in the chart" % want)
    # --compare: the second sweep's busbw points, named by the file given
    cmp = os.environ.get("HTML_COMPARE")
    if cmp:
        other = json.load(open(cmp))
        other = other.get("bench", other)
        n = 0
        for r in other["results"]:
            for place in ("out_of_place", "in_place"):
                want = "%s: %s bytes: busbw, %s %s GB/s" % (cmp, num(r["size"]),
                                                            place.replace("_", " "),
                                                            num(r[place]["bus_bw"]))
                n += 1
                if want not in titles:
                    fail("compared point %s not in the chart" % want)
        if not n:
            fail("no compared points")
    # every finding's title and evidence shows, as text
    for f in doc.get("findings", []):
        if f["title"] not in alltext:
            fail("finding title not shown as text: %r" % f["title"][:80])
        for ev in f.get("evidence", []):
            if ev not in alltext:
                fail("evidence not shown as text: %r" % ev[:80])
    if len(sys.argv) > 3:
        report = open(sys.argv[3], encoding="utf-8").read()
        m = re.search(r'<pre id="overflow-report"[^>]*>(.*?)</pre>', report, re.S)
        if not m:
            fail("the overflow probe did not run")
        elif m.group(1).strip() != "none":
            fail("content wider than its box: " + m.group(1).strip()[:2000])
    print("checked %d figures, %d matrix cells (%d slow), %d port-map rows" %
          (nfig, len(cells), nslow, len(rows)))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
