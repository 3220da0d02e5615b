#!/usr/bin/env python3
"""Compares the torch facts of one interpreter between two `ncclcheck node --json` documents:
the static path (torch's files) and the import path (--deep). Prints PASS/FAIL per fact.

    torch_facts_cmp.py STATIC.json DEEP.json PYTHON [--fallback-ok]

PYTHON is the python[] entry's path. Exit 0 when every fact matches, 1 when one differs, 2 when
a document or the entry is missing. The text of an error (nccl_error) is not a fact: only that
both have one is compared.
"""
import json
import sys

FACTS = ["installed", "version", "path", "cuda", "cudnn", "cudnn_code", "cuda_available",
         "device_count", "nccl_version", "nccl_version_code", "nccl_mapped", "nccl_static",
         "nccl_mapped_all"]
ABSENT = "<absent>"


def entry(doc_path, py):
    try:
        with open(doc_path) as f:
            facts = json.load(f)["facts"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit("FAIL cannot read %s: %s" % (doc_path, e))
    for p in facts.get("python", []):
        if isinstance(p, dict) and (p.get("path") == py or py in p.get("also_as", [])):
            return p.get("torch", {}), p.get("elapsed_ms")
    print("FAIL no python[] entry for %s in %s" % (py, doc_path))
    sys.exit(2)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    fallback_ok = "--fallback-ok" in sys.argv
    if len(args) != 3:
        sys.exit(__doc__)
    st, st_ms = entry(args[0], args[2])
    dp, dp_ms = entry(args[1], args[2])
    bad = 0

    def check(name, ok, detail):
        nonlocal bad
        print("%s %-18s %s" % ("PASS" if ok else "FAIL", name, detail))
        bad += not ok

    check("source(static)", st.get("source") == "static" or
          (fallback_ok and st.get("static_fallback")),
          "%s%s" % (st.get("source", ABSENT), " (fallback: %s)" % st["static_fallback"]
                    if st.get("static_fallback") else ""))
    check("source(deep)", dp.get("source") == "import", dp.get("source", ABSENT))
    for k in FACTS:
        a, b = st.get(k, ABSENT), dp.get(k, ABSENT)
        check(k, a == b, json.dumps(a) if a == b else "static %s vs import %s" %
              (json.dumps(a), json.dumps(b)))
    a, b = "nccl_error" in st, "nccl_error" in dp
    check("nccl_error", a == b, "both %s" % ("present" if a else "absent") if a == b else
          "static %s vs import %s" % (st.get("nccl_error", ABSENT), dp.get("nccl_error", ABSENT)))
    print("elapsed_ms static %s import %s" % (st_ms, dp_ms))
    print("RESULT %s (%d fact(s) differ)" % ("PASS" if not bad else "FAIL", bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
