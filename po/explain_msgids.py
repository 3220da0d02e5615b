#!/usr/bin/env python3
"""Extracts the texts of explain's tables (src/explain/sigs.c) into a POT file.

explain's verdicts are rows, not format strings in calls, so xgettext does not see them; this
reads the preprocessed sigs.c (macros such as IB_WC and CUDA_ERR expanded, literals still
apart) and takes every .title, .cause, .fix and .check by field name. A text becomes a msgid the way
tests/unit/test_i18n.c's walk of the tables makes it (keep the two in step):
  - explain's placeholders ({}, {node}, {env:NAME}, {gpu_arch}, {launcher_gpu}) become %s and a
    '%' becomes %%: the msgid is a c-format one, and i18n_text() matches the filled-in English
    against it like any rule's format;
  - a check ("ncclcheck node   (on every node: ...)") is one msgid: the value of "to test it: %s";
  - a fix is lines: a line that is a comment ("# ...") is a msgid as a whole; a command with a
    comment ("cmd   # why") gives the comment's words (the renderer translates those alone); a
    line of prose (no command: see prose()) is a msgid as a whole; a bare command none.
The rules' fix lines (rs_fix() calls in src/explain/reason*.c) are formats whose command part
holds values; xgettext extracts them and --calls makes the same comment / prose msgids of them
(their conversions stay as they are).
Usage: cc -E -P -Isrc src/explain/sigs.c | explain_msgids.py > explain.pot
       explain_msgids.py --calls rs_fix.pot > explain_fix.pot
"""
import re
import sys

PLACEHOLDER = re.compile(r"\{(?:env:[A-Za-z0-9_]+|node|gpu_arch|launcher_gpu|)\}")
LIT = re.compile(r'"((?:[^"\\]|\\.)*)"')
FIELD = re.compile(r"\.(title|cause|fix|check)\s*=\s*")
ESC = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'", "?": "?"}


def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            if s[i + 1] in ESC:
                out.append(ESC[s[i + 1]])
                i += 2
                continue
            m = re.match(r"x([0-9a-fA-F]{1,2})|([0-7]{1,3})", s[i + 1:])
            if m:
                out.append(chr(int(m.group(1), 16) if m.group(1) else int(m.group(2), 8)))
                i += 1 + len(m.group(0))
                continue
        out.append(s[i])
        i += 1
    return "".join(out)


def literals(src, pos):
    """The concatenated string literals at pos (whitespace between them), or None."""
    parts = []
    while True:
        while pos < len(src) and src[pos] in " \t\n":
            pos += 1
        m = LIT.match(src, pos)
        if not m:
            break
        parts.append(unescape(m.group(1)))
        pos = m.end()
    return "".join(parts) if parts else None


def msgid(text):
    return PLACEHOLDER.sub("%s", text.replace("%", "%%"))


def prose(line):
    """A fix line that is an instruction in English rather than a command to paste."""
    words = line.split(" ")
    return (len(words) >= 3 and re.fullmatch(r"[a-z]+", words[0]) is not None and
            words[0] not in COMMANDS and not words[1].startswith(("-", "/", ".")) and "=" not in words[1])


COMMANDS = {"export", "unset", "sudo", "pip", "pip3", "python", "python3", "ip", "ulimit",
            "docker", "kubectl", "torchrun", "srun", "sysctl", "dmesg", "lsmod", "ibstat",
            "echo", "cat", "ls", "df", "mount", "grep", "ncclcheck", "nvidia-smi", "modprobe",
            "ping", "ss", "nc", "iptables", "nft", "ufw", "firewall-cmd", "env", "ibv_devinfo",
            "mpirun", "deepspeed", "accelerate", "conda", "apt", "apt-get", "yum", "dnf", "rm",
            "mkdir", "ln", "chmod", "ethtool", "lspci", "ulimit", "systemctl", "journalctl",
            "strace", "gdb", "py-spy", "ray", "hostname", "getent", "nslookup", "dig", "curl",
            "wget", "tc", "route", "sed", "awk", "readlink", "ldd", "ldconfig", "which",
            "nvcc", "uname", "numactl", "lscpu", "lstopo", "ibdev2netdev", "rdma", "mst",
            "show_gids", "perftest", "ib_write_bw", "all_reduce_perf", "cd", "git",
            "cmake", "timeout", "watch", "top", "htop", "free", "du", "mpiexec", "scontrol",
            "sinfo", "squeue", "sbatch", "salloc", "set", "source", "nproc", "sh", "bash"}


def fix_msgids(fix):
    for line in fix.split("\n"):
        if not line:
            continue
        if line.startswith("# "):
            yield line
        elif "  # " in line:
            yield line[line.index("  # ") + 4:]
        elif prose(line):
            yield line


def from_calls(path):
    """The fix msgids of the rs_fix() formats in an xgettext POT: (msgid, where)."""
    text = open(path, encoding="utf-8").read()
    for entry in text.split("\n\n"):
        refs = re.findall(r"^#: (.*)$", entry, re.M)
        m = re.search(r'^msgid "((?:[^"\\]|\\.)*)"$', entry, re.M)
        if not m or not m.group(1):
            continue
        where = refs[0].split(" ")[0] if refs else "src/explain"
        for t in fix_msgids(unescape(m.group(1))):
            yield t, f"{where} (rs_fix)"


def main():
    seen, order = {}, []
    if sys.argv[1:2] == ["--calls"]:
        found = from_calls(sys.argv[2])
    else:
        src = sys.stdin.read()
        found = []
        for m in FIELD.finditer(src):
            text = literals(src, m.end())
            if text is None:
                continue	# NULL, or a variable
            texts = fix_msgids(text) if m.group(1) == "fix" else [text]
            found += [(msgid(t), f"src/explain/sigs.c ({m.group(1)})") for t in texts]
    for t, where in found:
        if t and t not in seen:
            seen[t] = where
            order.append(t)
    out = sys.stdout
    out.write('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n')
    for t in order:
        out.write(f"#: {seen[t]}\n")
        if "%" in t:
            out.write("#, c-format\n")
        body = t.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n")
        out.write(f'msgid "{body}"\nmsgstr ""\n\n')


main()
