#!/usr/bin/env python3
"""zh_lines.py [--words N] [--no-width] FILE: the lines of ncclcheck's Chinese output that break
the Chinese promise.

A line is wider than 100 columns (an East Asian Wide or Fullwidth character counting two), or it
is English prose: three or more English words in a row that are not a command, an identifier or a
value (words with digits, dots, slashes, '=', '_', '-', '*', ':' or '$' are names and values; the
items of a list that Chinese separates with '、' are names). --words N: N words in a row are prose
(default 3); --no-width: no width limit (messages on stderr are one line, unwrapped, as in English).
Lines that quote commands or other tools stay as they are: a shown command ('$ ...'), export/unset
and the fix commands, the output of ping and nc the demo shows, the system's own error text
(dlerror's "cannot open shared object file"), and nccl-tests' own lines in bench's table. Prints each offending line with its reason; exit 1
if any.
"""
import re
import sys
import unicodedata

WIDTH = 100
# lines a person reads as commands or as another tool's output, never translated
QUOTED = re.compile(r"^\s*(\$|\[n[0-9, 、]+.*\]\$|export |unset |iptables |ip6tables |sysctl |docker |"
                    r"ldd |ncclcheck |torchrun |srun |nc:|Connection to |PING |64 bytes |"
                    r"[0-9]+ packets transmitted|rtt |--- |dm[0-9]+-n[0-9]+ +iptables|"
                    r"n[0-9]+ +dm[0-9]+-n[0-9]+ |#+ +\(?kubectl )")
SYSTEM = ("cannot open shared object file",)
# nccl-tests' own lines, which bench prints as nccl-tests does in every language (scripts grep and
# parse them): its header, device lines, the column header, the rows and the footer's two figures. bench's
# own lines (its banner, notes, the link ceiling under the footer) are prose like any other.
NCCL_TESTS = re.compile(r"^# (nThread [0-9]|Collective test (starting|concluded): |Using devices$|"
                        r" Rank +[0-9]+ Group +[0-9]+ Pid +[0-9]+ on |Out of bounds values +: |"
                        r"Avg bus bandwidth +: | +size +count +type +redop +root +time | +\(B\) +"
                        r"\(elements\) | +out-of-place +in-place)|^ +[0-9]+ +[0-9]+ +[a-z0-9]+ +[a-z]+ +-?[0-9]+ ")
# an English word: letters only, with an apostrophe at most (names and values carry other signs)
WORD = re.compile(r"^[A-Za-z]+('[a-z]+)?[,;:.)]*$")
# words that are names wherever they stand
NAMES = {"NCCL", "TCP", "UDP", "IB", "RDMA", "GPU", "GPUs", "CUDA", "NVML", "MTU", "ICMP", "DMI",
         "SMBIOS", "IPv4", "IPv6", "PCIe", "NVLink", "Gloo", "TCPStore", "MASTER_ADDR", "AWS",
         "EFA", "TLS", "PyTorch", "Python", "Lightning", "Slurm", "Docker", "Debian", "GNU",
         "Linux", "Ubuntu", "RoCE", "NET", "Socket", "TCCL", "HCCL", "MCCL", "AutoDL", "ping",
         "nc", "torch", "bootstrap", "proxy", "ring", "root", "rank", "ranks", "veth", "loopback",
         "running", "docker", "toolkit", "python", "cuDNN", "libibverbs", "GPUDirect", "eth",
         "and", "or", "release", "demo", "lab", "ncclcheck", "bookworm", "up", "down", "tc",
         "qdisc", "show", "ip", "link", "S", "exec", "nvcc", "PATH", "ldconfig", "cuda", "default",
         "schema", "flight", "recorder", "dump", "Flight", "MPI", "mpirun", "Kubeflow",
         "PyTorchJob", "kubectl", "TaskProlog", "srun", "sbatch", "strtoll", "NULL"}


def cols(s):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def english_run(line):
    run = best = 0
    # a word next to a '、' is an item of a list of names (allreduce、allgather)
    listed = set(re.findall(r"([A-Za-z0-9_.-]+)、", line)) | set(re.findall(r"、([A-Za-z0-9_.-]+)", line))
    for tok in re.split(r"[\s（）()《》，。；：、]+", line):
        if not tok or tok in listed:
            continue
        if WORD.match(tok) and tok.rstrip(",;:.)") not in NAMES:
            run += 1
            best = max(best, run)
        elif not WORD.match(tok):
            run = 0
    return best


def main():
    args, words, width = sys.argv[1:], 3, True
    while args and args[0].startswith("--"):
        if args[0] == "--words":
            words = int(args[1])
            args = args[2:]
        elif args[0] == "--no-width":
            width = False
            args = args[1:]
        else:
            sys.exit(f"zh_lines.py: unknown option {args[0]}")
    bad = 0
    for n, raw in enumerate(open(args[0], encoding="utf-8"), 1):
        line = re.sub(r"\x1b\[[0-9;]*m", "", raw.rstrip("\n"))
        quoted = QUOTED.match(line) or ("  # " in line and QUOTED.match(line.split("  # ")[0]))
        if NCCL_TESTS.match(line):
            continue
        if width and cols(line) > WIDTH and not line.startswith("$ "):
            print(f"{n}: {cols(line)} columns: {line}")
            bad += 1
        if quoted or any(s in line for s in SYSTEM):
            continue
        if english_run(line) >= words:
            print(f"{n}: English: {line}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
