#!/usr/bin/env python3
"""A stand-in for NCCL's RAS client socket that replays recorded answers (loopback only).

Serves a transcript as `ncclcheck attach --record` writes it (or as
tests/fixtures/attach/make_fixtures.py builds it): connection i gets poll i's answers (the
last poll again once they run out). Each line the client sends is answered with the "recv" of
the exchange whose "send" matches (case-insensitively, as NCCL compares); STATUS gets its
report and then the connection closes, as NCCL does. A line the recording lacks gets NCCL's
"ERROR: Unknown command <line>".

Modes for the misbehaving server cases:
  normal     as recorded
  garbage    answers the first line with an HTTP error page, then closes
  freeze     accepts and reads, never answers
  hang       answers the protocol lines, never sends the report
  oversize   sends a report of --oversize-mb MiB of JSON-looking bytes
  truncate   sends half of the report, then closes
Options: --subst KEY=VALUE replaces @KEY@ in every answer (pids of real local processes);
--log FILE appends "<monotonic seconds> <line>" for every line received.
It writes the port it listens on (127.0.0.1, an ephemeral port) to --port-file, and exits
after --max-conns connections or --idle SECS without a connection.
"""
import argparse
import json
import os
import socket
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("transcript")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--mode", default="normal",
                    choices=["normal", "garbage", "freeze", "hang", "oversize", "truncate"])
    ap.add_argument("--subst", action="append", default=[])
    ap.add_argument("--log")
    ap.add_argument("--max-conns", type=int, default=20)
    ap.add_argument("--idle", type=float, default=30.0)
    ap.add_argument("--oversize-mb", type=int, default=20)
    a = ap.parse_args()

    with open(a.transcript) as fh:
        t = json.load(fh)
    polls = t["polls"]
    subst = [kv.split("=", 1) for kv in a.subst]

    def fix(s):
        for k, v in subst:
            s = s.replace("@" + k + "@", v)
        return s

    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    srv.settimeout(a.idle)
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(str(srv.getsockname()[1]))
    os.rename(tmp, a.port_file)
    log = open(a.log, "a") if a.log else None

    for n in range(a.max_conns):
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            break
        conn.settimeout(a.idle)
        poll = polls[min(n, len(polls) - 1)]
        try:
            serve(conn, poll, a, fix, log, t.get("timeout_float", False))
        except (OSError, socket.timeout):
            pass
        finally:
            conn.close()
    return 0


def serve(conn, poll, a, fix, log, t_float):
    buf = b""
    answers = {x["send"].strip().lower(): x.get("recv") for x in poll["exchange"]}
    while True:
        while b"\n" not in buf:
            d = conn.recv(4096)
            if not d:
                return
            buf += d
        line, buf = buf.split(b"\n", 1)
        line = line.rstrip(b"\r").decode("utf-8", "replace")
        if log:
            log.write("%.3f %s\n" % (time.monotonic(), line))
            log.flush()
        if a.mode == "garbage":
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            return
        if a.mode == "freeze":
            while conn.recv(4096):
                pass
            return
        key = line.strip().lower()
        # NCCL ends the connection after a report, and after its BUSY line (client_support.cc)
        status = key in ("status", "verbose status", "diagnostics")
        if status and a.mode == "hang":
            while conn.recv(4096):
                pass
            return
        if status and a.mode == "oversize":
            chunk = b'{"communicators": [' + b" " * 65000 + b"\n"
            for _ in range(a.oversize_mb * 16):
                conn.sendall(chunk)
            return
        recv = answers.get(key)
        if recv is None and key.startswith("timeout "):
            # NCCL accepts any non-negative integer (client_support.cc); 2.31 parses it with
            # strtod, so a transcript of a 2.31+ server ("timeout_float") takes "2.5" too
            v = key[8:].strip()
            ok = v.isdigit()
            if not ok and t_float:
                try:
                    ok = float(v) >= 0
                except ValueError:
                    ok = False
            recv = "OK\n" if ok else "ERROR: Invalid timeout value %s\n" % v
        if recv is None:
            if status and key != "diagnostics":
                recv = answers.get("status") or answers.get("verbose status")
            else:
                recv = "ERROR: Unknown command %s\n" % line
        recv = fix(recv)
        data = recv.encode()
        if status and a.mode == "truncate":
            data = data[: len(data) // 2]
        conn.sendall(data)
        if status:
            return


if __name__ == "__main__":
    sys.exit(main())
