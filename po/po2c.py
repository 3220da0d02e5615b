#!/usr/bin/env python3
"""Compiles a gettext PO file into a C table that is linked into ncclcheck.

The binary carries its translations (no .mo files at run time: the portable binary, the wheel
and the tarball are one file each). Usage: po2c.py LANG IN.po OUT.c

The table is sorted by the msgid's UTF-8 bytes, the order strcmp() sees, so i18n.c looks an
exact msgid up with bsearch(). Entries flagged c-format that have conversions are listed once
more, longest literal text first: i18n_text() puts an already formatted English text (a finding
decoded from JSON) into the language by matching it against them, and the most specific format
must win over a shorter one that happens to match too. Fuzzy and untranslated entries are left
out, so a lookup falls back to the English msgid.
"""
import re
import sys

CONV = re.compile(r"%(?:(\d+)\$)?[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
                  r"(?:hh|h|ll|l|L|q|j|z|Z|t)?([diouxXeEfFgGaAcsp%])")


def die(path, line, msg):
    sys.exit(f"{path}:{line}: {msg}")


def unquote(path, line, s):
    s = s.strip()
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        die(path, line, f"not a quoted string: {s}")
    body, out, i = s[1:-1], [], 0
    esc = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r", "a": "\a", "b": "\b",
           "f": "\f", "v": "\v"}
    while i < len(body):
        c = body[i]
        if c == "\\":
            if i + 1 >= len(body) or body[i + 1] not in esc:
                die(path, line, f"unsupported escape in {s}")
            out.append(esc[body[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse(path):
    entries, cur, field, lineno = [], None, None, 0

    def flush():
        if cur and "msgid" in cur:
            entries.append(cur)

    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                flush()
                cur, field = None, None
                continue
            if line.startswith("#~"):
                continue	# obsolete
            if cur is None:
                cur = {"flags": set(), "line": lineno}
            if line.startswith("#,"):
                cur["flags"].update(x.strip() for x in line[2:].split(","))
                continue
            if line.startswith("#"):
                continue
            m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$', line)
            if m:
                field = m.group(1)
                if "msgid" in cur and field in ("msgctxt", "msgid"):
                    flush()	# a new entry without a blank line before it
                    cur, field = {"flags": set(), "line": lineno}, m.group(1)
                cur[field] = unquote(path, lineno, m.group(3))
                continue
            if line.startswith('"') and field:
                cur[field] += unquote(path, lineno, line)
                continue
            die(path, lineno, f"cannot read: {line}")
    flush()
    return entries


def convs(s):
    return [m for m in CONV.finditer(s) if m.group(2) != "%"]


def literal_len(s):
    return len(CONV.sub("", s).encode())


def cstr(s):
    out = ['"']
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append('\\n"\n\t  "')
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20:
            out.append("\\%03o" % ord(ch))
        elif ch == "?":
            out.append("\\?")	# no trigraphs
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: po2c.py LANG IN.po OUT.c")
    lang, src, dst = sys.argv[1:]
    if not re.fullmatch(r"[a-z]{2}(_[A-Z]{2})?", lang):
        sys.exit(f"po2c.py: bad language '{lang}'")
    ident = lang.replace("-", "_")
    rows, seen = [], {}
    for e in parse(src):
        if e["msgid"] == "" or "msgctxt" in e:
            continue	# the header; contexts are not used
        if e["msgid"] in seen:
            die(src, e["line"], f"msgid repeated from line {seen[e['msgid']]}")
        seen[e["msgid"]] = e["line"]
        text = e.get("msgstr[0]") if "msgid_plural" in e else e.get("msgstr")
        if not text or "fuzzy" in e["flags"]:
            continue
        fmt = "c-format" in e["flags"]
        if fmt and len(convs(e["msgid"])) != len(convs(text)):
            die(src, e["line"], "msgstr has another number of conversions than msgid")
        if fmt and any(m.group(1) for m in convs(text)) and "*" in text:
            die(src, e["line"], "'*' widths cannot be reordered: write the msgstr in order")
        # a format that is mostly conversions ("%s", "%s: %s") would match any text: such glue
        # is looked up exactly (where it is used), never matched against a formatted text
        # and one with few words of its own ("%s and %s") only rewrites a value inside another
        # format's text, where it is a list, never a whole sentence that happens to hold "and"
        # A fix line's "# " counts as a word: "# on %s" is a comment of its own kind.
        words = sum(1 for ch in CONV.sub("", e["msgid"]) if ch.isalnum() or ord(ch) > 127)
        if e["msgid"].startswith("# "):
            words += 4
        kind = 0 if not (fmt and "%" in e["msgid"] and words >= 3) else 2 if words < 6 else 1
        rows.append((e["msgid"], text, kind))
    rows.sort(key=lambda r: r[0].encode())
    fmts = sorted((i for i, r in enumerate(rows) if r[2]),
                  key=lambda i: (-literal_len(rows[i][0]), rows[i][0].encode()))
    with open(dst, "w", encoding="utf-8") as out:
        out.write(f"/* Generated from {src.split('/')[-1]} by po/po2c.py: edit the PO file. */\n")
        out.write('#include "util/i18n_table.h"\n\n')
        out.write(f"const struct i18n_entry i18n_{ident}[] = {{\n")
        for msgid, text, fmt in rows:
            out.write(f"\t{{ .id = {cstr(msgid)},\n\t  .str = {cstr(text)},\n"
                      f"\t  .format = {int(fmt)} }},\n")
        out.write("};\n")
        out.write(f"const size_t i18n_{ident}_count = {len(rows)};\n\n")
        out.write(f"const unsigned i18n_{ident}_formats[] = {{\n")
        for i in fmts:
            out.write(f"\t{i},\n")
        if not fmts:
            out.write("\t0,\n")
        out.write("};\n")
        out.write(f"const size_t i18n_{ident}_nformats = {len(fmts)};\n")


main()
