#!/usr/bin/env python3
"""nfq_delay.py: adds a fixed delay to every packet of an NFQUEUE queue (the kernel here has no
netem). Raw netlink, no packages: binds queue Q in this network namespace, asks for packet
metadata only, and gives each packet its NF_ACCEPT verdict DELAY ms after it arrived. The queue
fails open (a full queue passes packets instead of dropping them), so the delayer adds latency
and nothing else.

usage: nfq_delay.py --queue Q --delay-ms MS [--ready FILE] [--seconds S]
  with: iptables -I INPUT -i eth1 -j NFQUEUE --queue-num Q --queue-bypass
"""
import argparse
import collections
import os
import select
import socket
import struct
import sys
import time

NETLINK_NETFILTER = 12
NFNL_SUBSYS_QUEUE = 3
NFQNL_MSG_PACKET, NFQNL_MSG_VERDICT, NFQNL_MSG_CONFIG, NFQNL_MSG_VERDICT_BATCH = 0, 1, 2, 3
NFQA_CFG_CMD, NFQA_CFG_PARAMS, NFQA_CFG_QUEUE_MAXLEN, NFQA_CFG_MASK, NFQA_CFG_FLAGS = 1, 2, 3, 4, 5
NFQNL_CFG_CMD_BIND = 1
NFQNL_COPY_META = 1
NFQA_CFG_F_FAIL_OPEN = 1
NFQA_PACKET_HDR = 1
NFQA_VERDICT_HDR = 2
NF_ACCEPT = 1
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLMSG_ERROR = 2


def attr(kind, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, kind) + payload + b"\0" * ((4 - n % 4) % 4)


def message(msg, queue, attrs, flags=NLM_F_REQUEST, seq=0):
    body = struct.pack("=BBH", socket.AF_UNSPEC, 0, socket.htons(queue)) + b"".join(attrs)
    kind = (NFNL_SUBSYS_QUEUE << 8) | msg
    return struct.pack("=IHHII", 16 + len(body), kind, flags, seq, 0) + body


def attrs_of(buf):
    out, off = {}, 0
    while off + 4 <= len(buf):
        n, kind = struct.unpack_from("=HH", buf, off)
        if n < 4:
            break
        out[kind & 0x7fff] = buf[off + 4:off + n]
        off += (n + 3) & ~3
    return out


def config(sock, queue, attrs, seq):
    """Sends one config message and waits for its ack; raises on a netlink error."""
    sock.send(message(NFQNL_MSG_CONFIG, queue, attrs, NLM_F_REQUEST | NLM_F_ACK, seq))
    while True:
        data = sock.recv(65536)
        off = 0
        while off + 16 <= len(data):
            n, kind, _flags, rseq, _pid = struct.unpack_from("=IHHII", data, off)
            if kind == NLMSG_ERROR and rseq == seq:
                err = struct.unpack_from("=i", data, off + 16)[0]
                if err:
                    raise OSError(-err, os.strerror(-err))
                return
            off += (n + 3) & ~3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--queue", type=int, required=True)
    ap.add_argument("--delay-ms", type=float, required=True)
    ap.add_argument("--ready", help="file created once the queue is bound")
    ap.add_argument("--seconds", type=float, default=600, help="exit after this long")
    a = ap.parse_args()
    delay = a.delay_ms / 1000.0

    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    sock.bind((0, 0))
    config(sock, a.queue, [attr(NFQA_CFG_CMD, struct.pack("!BBH", NFQNL_CFG_CMD_BIND, 0, 0))], 1)
    config(sock, a.queue, [attr(NFQA_CFG_PARAMS, struct.pack("!IB", 0, NFQNL_COPY_META))], 2)
    config(sock, a.queue, [attr(NFQA_CFG_QUEUE_MAXLEN, struct.pack("!I", 65536))], 3)
    config(sock, a.queue, [attr(NFQA_CFG_MASK, struct.pack("!I", NFQA_CFG_F_FAIL_OPEN)),
                           attr(NFQA_CFG_FLAGS, struct.pack("!I", NFQA_CFG_F_FAIL_OPEN))], 4)
    if a.ready:
        open(a.ready, "w").close()
    print(f"nfq_delay: queue {a.queue}, {a.delay_ms:g} ms", file=sys.stderr, flush=True)

    # one delay for every packet: they leave in the order they came, so a batch verdict for
    # the last one due releases every one before it (few syscalls: a starved delayer on a
    # loaded machine must not add its own queueing to the delay it stands for)
    pending = collections.deque()  # (due, packet id)
    end = time.monotonic() + a.seconds
    passed = 0
    while time.monotonic() < end:
        now = time.monotonic()
        last = None
        while pending and pending[0][0] <= now:
            last = pending.popleft()[1]
            passed += 1
        if last is not None:
            sock.send(message(NFQNL_MSG_VERDICT_BATCH, a.queue,
                              [attr(NFQA_VERDICT_HDR, struct.pack("!II", NF_ACCEPT, last))]))
        wait = max(0.0, pending[0][0] - now) if pending else 0.5
        r, _, _ = select.select([sock], [], [], wait)
        if not r:
            continue
        for _ in range(4096):
            try:
                data = sock.recv(1 << 16, socket.MSG_DONTWAIT)
            except BlockingIOError:
                break
            except OSError:  # ENOBUFS: notifications lost; fail-open passes those packets
                continue
            arrived = time.monotonic()
            off = 0
            while off + 16 <= len(data):
                n, kind, _flags, _seq, _pid = struct.unpack_from("=IHHII", data, off)
                if n < 16:
                    break
                if kind == (NFNL_SUBSYS_QUEUE << 8) | NFQNL_MSG_PACKET:
                    hdr = attrs_of(data[off + 20:off + n]).get(NFQA_PACKET_HDR)
                    if hdr and len(hdr) >= 4:
                        pending.append((arrived + delay, struct.unpack_from("!I", hdr)[0]))
                off += (n + 3) & ~3
    print(f"nfq_delay: {passed} packets delayed", file=sys.stderr)


if __name__ == "__main__":
    main()
