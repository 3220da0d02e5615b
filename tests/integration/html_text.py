#!/usr/bin/env python3
"""html_text.py PAGE.html: the text of an HTML report that a person reads as prose, one block a line.

Every element's text (SVG <title> tooltips too) and every title attribute, but not <code>, <pre>,
<style> or <script>: those hold commands, log lines and fix blocks, quoted as they are. For
zh_lines.py, which then says which lines of a Chinese page are English prose.
"""
import sys
from html.parser import HTMLParser

QUOTED = ("code", "pre", "style", "script")
BLOCKS = ("p", "div", "li", "tr", "h1", "h2", "h3", "h4", "td", "th", "summary", "title", "text",
          "br", "section")


class Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.lines, self.cur, self.quoted = [], [], 0

    def flush(self):
        t = " ".join("".join(self.cur).split())
        if t:
            self.lines.append(t)
        self.cur = []

    def handle_starttag(self, tag, attrs):
        if tag in QUOTED:
            self.quoted += 1
        if tag in BLOCKS:
            self.flush()
        for k, v in attrs:
            if k == "title" and v:
                self.lines.append(v)

    def handle_endtag(self, tag):
        if tag in QUOTED:
            self.quoted -= 1
        if tag in BLOCKS:
            self.flush()

    def handle_data(self, data):
        if not self.quoted:
            self.cur.append(data)


def main():
    t = Text()
    t.feed(open(sys.argv[1], encoding="utf-8").read())
    t.flush()
    print("\n".join(t.lines))


if __name__ == "__main__":
    main()
