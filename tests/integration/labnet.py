"""Plain-socket probes the lab tests run inside lab nodes (stdlib only, any python3).

  serve READYFILE PORT...         listen on every port (all addresses); each connection gets
                                  "<hostname> <bytes received>" back once the peer shuts down
  connect HOST PORT TIMEOUT       prints connected | refused | timeout | error:<reason>
  send HOST PORT BYTES TIMEOUT    sends BYTES, prints "ok <bytes echoed> <seconds> <peer>" or
                                  "stalled <seconds>" or "error:<reason>"
  ephemeral N                     binds N listeners to port 0, prints their ports
  resolve NAME                    prints the address or "fail <seconds> <reason>"
"""
import os
import socket
import sys
import threading
import time


def serve(ready, ports):
    socks = []
    for p in ports:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("0.0.0.0", int(p)))
        s.listen(64)
        socks.append(s)
    me = socket.gethostname()

    def handle(c):
        n = 0
        try:
            c.settimeout(30)
            while True:
                d = c.recv(1 << 16)
                if not d:
                    break
                n += len(d)
            c.sendall(("%s %d" % (me, n)).encode())
        except OSError:
            pass
        finally:
            c.close()

    def accept(s):
        while True:
            c, _ = s.accept()
            threading.Thread(target=handle, args=(c,), daemon=True).start()

    for s in socks:
        threading.Thread(target=accept, args=(s,), daemon=True).start()
    with open(ready + ".tmp", "w") as f:
        f.write("ready\n")
    os.rename(ready + ".tmp", ready)
    while True:
        time.sleep(3600)


def connect(host, port, timeout):
    s = socket.socket()
    s.settimeout(float(timeout))
    try:
        s.connect((host, int(port)))
        print("connected")
    except ConnectionRefusedError:
        print("refused")
    except socket.timeout:
        print("timeout")
    except OSError as e:
        print("error:%s" % e.strerror)
    finally:
        s.close()


def send(host, port, size, timeout):
    t0 = time.monotonic()
    s = socket.socket()
    s.settimeout(float(timeout))
    try:
        s.connect((host, int(port)))
        s.sendall(b"x" * int(size))
        s.shutdown(socket.SHUT_WR)
        reply = b""
        while True:
            d = s.recv(256)
            if not d:
                break
            reply += d
        peer, n = reply.decode().split()
        print("ok %s %.3f %s" % (n, time.monotonic() - t0, peer))
    except socket.timeout:
        print("stalled %.3f" % (time.monotonic() - t0))
    except (OSError, ValueError) as e:
        print("error:%s" % e)
    finally:
        s.close()


def ephemeral(n):
    socks = []
    for _ in range(int(n)):
        s = socket.socket()
        s.bind(("0.0.0.0", 0))
        s.listen(1)
        socks.append(s)
        print(s.getsockname()[1])


def resolve(name):
    t0 = time.monotonic()
    try:
        print(socket.getaddrinfo(name, None, socket.AF_INET)[0][4][0])
    except socket.gaierror as e:
        print("fail %.3f %s" % (time.monotonic() - t0, e.strerror))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"serve": lambda: serve(args[0], args[1:]),
     "connect": lambda: connect(*args),
     "send": lambda: send(*args),
     "ephemeral": lambda: ephemeral(*args),
     "resolve": lambda: resolve(*args)}[cmd]()
