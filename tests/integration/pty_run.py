#!/usr/bin/env python3
"""pty_run.py COLS OUT CMD...: runs CMD in a pseudo-terminal COLS columns wide (TIOCSWINSZ, as a
terminal window would set it), writes everything it printed (stdout and stderr, as a person sees
them) to OUT, and exits with CMD's status."""
import fcntl
import os
import pty
import struct
import sys
import termios

cols, out, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 50, cols, 0, 0))
    os.execvp(cmd[0], cmd)
data = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
_, status = os.waitpid(pid, 0)
with open(out, "wb") as f:
    f.write(data)
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode")
         else (status >> 8))
