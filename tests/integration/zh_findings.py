#!/usr/bin/env python3
"""zh_findings.py NCCLCHECK FIXTURES OUTDIR: renders, in Chinese, the findings of every facts
document the tests have (node --facts), of the NCCL_* lint's cases (envlint: each an environment
put into a small facts document) and the check lines of the saved cluster reports (report
--html), and writes what a person reads of each finding, one line each, for zh_lines.py: its
head, cause, fix and why (a wrapped line joined to the one before it; evidence lines are the
facts read, key and value, and the inventory no finding), and each check line without its
leading command, so its comment, or words in parentheses after the command, is read. A text
another tool wrote (quoted with a space in it, torch's or NCCL's own error) is taken out: it is
quoted as it is. Prints, one a line: the file written, the document, how many lines it holds.
"""
import glob
import html as htmllib
import json
import os
import re
import subprocess
import sys

# (NCCL version, environment, more top-level facts): tests/unit/test_envlint.c's cases, one
# finding id or more each, so every title, why and fix format of rules/envlint.c is rendered
RDMA = {"devices": [{"name": "mlx5_0", "ports": [{"port": 1, "state": "ACTIVE",
                                                   "link_layer": "InfiniBand"}]}],
        "verbs": {"loaded": True}}
ENV_CASES = [
    ("2.28.9", {"NCCL_SOCKET_IFNAM": "eth1", "NCCL_SOCKET_NAME": "eth1"}, {}),
    ("2.28.9", {"NCCL_BLOCKING_WAIT": "1", "NCCL_ASYNC_ERROR_HANDLING": "1",
                "NCCL_OFI_USE_GDRCOPY": "1", "NCCL_FOO_BAR": "1"}, {}),
    ("2.28.9", {"NCCL_IB_DISABLE": "true", "NCCL_BUFFSIZE": "4M", "NCCL_IB_TIMEOUT": "010",
                "NCCL_IB_RETRY_CNT": "9", "NCCL_SOCKET_NTHREADS": "-2", "NCCL_IB_SL": "-1",
                "NCCL_NCHANNELS_PER_NET_PEER": "0x4", "NCCL_MIN_NCHANNELS": "99999999999999999999"},
     {}),
    ("2.28.9", {"NCCL_ALGO": "Tree", "NCCL_PROTO": "simple"}, {}),
    ("2.28.9", {"NCCL_ALGO": "Ring, Tree"}, {}),
    ("2.21.5", {"NCCL_ALGO": "Ring, Tree"}, {}),
    ("2.28.9", {"NCCL_ALGO": "allreduce:tree;ring", "NCCL_PROTO": "LL,Simple;allreduce:^LL"}, {}),
    ("2.28.9", {"NCCL_NSOCKS_PERTHREAD": "32", "NCCL_SOCKET_NTHREADS": "4"}, {}),
    ("2.28.9", {"NCCL_NSOCKS_PERTHREAD": "4"}, {}),
    ("2.28.9", {"NCCL_NSOCKS_PERTHREAD": "4", "NCCL_SOCKET_NTHREADS": "2"}, {}),
    ("2.28.9", {"NCCL_IB_DISABLE": "1"}, {"rdma": RDMA}),
    ("2.28.9", {"NCCL_IB_DISABLE": "1"}, {"rdma": {"devices": []}}),
    ("2.28.9", {"NCCL_NET": "IB"}, {"rdma": {"devices": []}}),
    ("2.28.9", {"NCCL_NET": "IB"}, {"rdma": RDMA}),
    ("2.28.9", {"NCCL_NET": "Libfabric"}, {"nccl": {"plugins": []}}),
    ("2.28.9", {"NCCL_NET": "ofi"}, {"nccl": {"plugins": [{"name": "libnccl-net-ofi.so"}]}}),
    ("2.28.9", {"NCCL_NET": "AWS Libfabric"},
     {"nccl": {"plugins": [{"path": "/opt/libnccl-net.so", "name": "libnccl-net.so"}]}}),
    ("2.28.9", {"NCCL_IB_HCA": "=mlx5_9"}, {"rdma": RDMA}),
    ("2.28.9", {"NCCL_IB_HCA": "mlx5"}, {"rdma": RDMA}),
    ("2.28.9", {"NCCL_DEBUG": "INFO"}, {}),
    ("2.28.9", {"NCCL_DEBUG": "TRACE", "NCCL_DEBUG_SUBSYS": "INIT,BOGUS"}, {}),
    ("2.28.9", {"NCCL_DEBUG": "verbose"}, {}),
    ("2.28.9", {"NCCL_SOCKET_FAMILY": "af_inet"}, {}),
    ("2.28.9", {"NCCL_LAUNCH_MODE": "PARALLEL"}, {}),
    ("2.28.9", {"NCCL_LAUNCH_MODE": "GROUP"}, {}),
    ("2.28.9", {"NCCL_BUFFSIZE": "4194304"}, {}),
    ("2.28.9", {"NCCL_BUFFSIZE": "3000000"}, {}),
    ("2.28.9", {"NCCL_BUFFSIZE": "1024"}, {}),
    ("2.28.9", {"NCCL_P2P_LEVEL": "nvl"}, {}),
    ("2.28.9", {"NCCL_NET_GDR_LEVEL": "5", "NCCL_P2P_LEVEL": "C2C"}, {}),
    ("2.26.6", {"NCCL_P2P_LEVEL": "C2C", "NCCL_NET_GDR_LEVEL": "BOGUS"}, {}),
    ("2.21.5", {"NCCL_CONF_FILE": "/opt/nccl.conf"}, {}),
    ("2.28.9", {"NCCL_WORK_FIFO_DEPTH": "65536", "NCCL_LL_THRESHOLD": "0"}, {}),
    ("2.28.9", {}, {"nccl": {"conf": [{"path": "/etc/nccl.conf", "source": "/etc/nccl.conf",
                                       "vars": {"NCCL_IB_DISABLE": "yes", "NCCL_DEBUG ": " INFO"},
                                       "lines": {"NCCL_IB_DISABLE": 3}}]}}),
    ("2.28.9", {"NCCL_DEBUG": "WARN"},
     {"nccl": {"conf": [{"path": "/etc/nccl.conf", "source": "/etc/nccl.conf",
                         "vars": {"NCCL_DEBUG": "INFO"}}]}}),
    ("2.28.9", {"NCCL_P2P_DISABLE": "1", "NCCL_SHM_DISABLE": "1", "NCCL_COMM_BLOCKING": "0",
                "NCCL_IB_GID_INDEX": "3", "NCCL_NTHREADS": ""}, {}),
    ("2.20.5", {"NCCL_IB_GID_INDEX": "3", "NCCL_NTHREADS": "", "NCCL_ALGO": ""}, {}),
    ("2.28.9", {"NCCL_CONF_FILE": "/opt/my.conf"},
     {"nccl": {"conf": [{"path": "/opt/my.conf", "source": "NCCL_CONF_FILE",
                         "vars": {"NCCL_DEBUG": "WARN"}},
                        {"path": "/root/.nccl.conf", "source": "~/.nccl.conf",
                         "vars": {"NCCL_ALGO": "Ring"}}]}}),
    ("2.21.5", {"NCCL_CONF_FILE": "/opt/my.conf"},
     {"nccl": {"conf": [{"path": "/opt/my.conf", "source": "NCCL_CONF_FILE",
                         "vars": {"NCCL_DEBUG": "WARN"}}]}}),
    ("2.28.9", {}, {"nccl": {"conf": [{"path": "/etc/nccl.conf", "source": "/etc/nccl.conf",
                                       "vars": {"NCCL_P2P_DISABLE": "1"},
                                       "lines": {"NCCL_P2P_DISABLE": 2}}]}}),
    ("2.30.7", {"NCCL_RUN_DIAGNOSTICS": "1", "NCCL_RAS_TIMEOUT_FACTOR": "1.5"}, {}),
    ("2.31.2", {"NCCL_PROGRESS_COUNTERS": "1", "NCCL_DEBUG": "ATTN"}, {}),
    ("2.32.3", {"NCCL_RAS_TIMEOUT_FACTOR": "-1"}, {}),
    ("2.32.3", {"NCCL_RAS_TIMEOUT_FACTOR": ""}, {}),
    ("2.28.9", {"NCCL_SOCKET_IPADDR_PREFIX": "10.", "NCCL_CLIENT_SOCKET_IFNAME": "eth0",
                "NCCL_COLLTRACE": "trace"}, {}),
    ("2.28.9", {"NCCL_SOCKET_NTHREADS": "1", "NCCL_NSOCKS_PERTHREAD": "1"}, {}),
    ("2.28.9", {"NCCL_IB_DISABLE": "0", "NCCL_DEBUG": "info"}, {}),
]
IFADDRS = [{"ifname": "lo", "family": 4, "addr": "127.0.0.1", "prefixlen": 8,
            "flags": {"running": True}},
           {"ifname": "eth0", "family": 4, "addr": "10.0.0.2", "prefixlen": 24,
            "flags": {"running": True}}]
# a text another tool wrote, quoted as it is: 'torch's error text', "NCCL's WARN line"
QUOTE = re.compile(r"(?<![\w-])('[^'\n]* [^'\n]*'|\"[^\"\n]* [^\"\n]*\")(?!\w)")
# what a rule writes: a finding's head line, its cause, fix and why (its evidence lines are the
# facts it read, key and value, and the node's inventory is no finding)
FINDING = re.compile(r"^(错误|警告|提示|通过) |^ {7}(原因|修复|起因)： ")


def run(exe, args):
    env = dict(os.environ, LANG="zh_CN.UTF-8", LC_ALL="", LC_MESSAGES="")
    return subprocess.run([exe] + args, env=env, capture_output=True, text=True).stdout


def unwrapped(text):
    """One finding's line and each of its labelled lines as one line: a wrapped continuation
    (indented, but not a label such as '       原因： ') joins the line before it."""
    out = []
    for line in text.splitlines():
        if out and re.match(r"^ {6,}\S", line) and not re.match(r"^ {7}\S+： ", line):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def checks(page):
    """The check lines of an HTML page, the command's first word and subcommand taken off."""
    for m in re.finditer(r"<p>[^<]*<code>(.*?)</code></p>", page):
        if m.group(1).startswith("ncclcheck "):
            yield "检查：" + htmllib.unescape(m.group(1)).split(" ", 2)[-1]


def main():
    exe, fixtures, outdir = sys.argv[1:4]
    docs = []
    for path in sorted(glob.glob(os.path.join(fixtures, "facts", "**", "*.json"), recursive=True)):
        docs.append((os.path.relpath(path, fixtures), ["node", "--facts", path]))
    for i, (version, env, extra) in enumerate(ENV_CASES):
        facts = {"schema_version": 1, "env": env,
                 "net": {"assume_nccl": version, "ifaddrs": IFADDRS}}
        facts.update(extra)
        path = os.path.join(outdir, f"envlint-{i}.json")
        with open(path, "w") as f:
            json.dump(facts, f)
        docs.append((f"envlint case {i} ({version} {json.dumps(env)})", ["node", "--facts", path]))
    # saved cluster reports: their check lines (integration.po_zh reads the rest of the page);
    # gpu/product's were recorded by an older build, whose titles no format of today wrote
    for path in sorted(glob.glob(os.path.join(fixtures, "html", "cluster*.json"))):
        docs.append((os.path.relpath(path, fixtures), ["report", path]))
    for i, (name, args) in enumerate(docs):
        html = os.path.join(outdir, f"doc-{i}.html")
        text = []
        if args[0] == "node":
            text = [l for l in unwrapped(run(exe, args + ["--no-color", "-v"])) if FINDING.match(l)]
        run(exe, args + ["--html", html])
        page = open(html, encoding="utf-8").read() if os.path.exists(html) else ""
        text += list(checks(page))
        lines = [QUOTE.sub("'…'", l) for l in text]
        out = os.path.join(outdir, f"doc-{i}.txt")
        with open(out, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        print(f"{out}\t{name}\t{len(text)}")


if __name__ == "__main__":
    main()
