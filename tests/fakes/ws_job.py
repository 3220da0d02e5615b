"""A Python process that serves its own stacks as torch's WorkerServer does: POST or GET
/handler/dump_traceback on the Unix socket $TORCH_WORKER_SERVER_SOCKET answers text/plain with
faulthandler.dump_traceback(fd, all_threads=True) (torch/csrc/distributed/c10d/control_plane/
PythonHandlers.cpp, torch 2.10+). A stand-in: torch with its WorkerServer cannot be installed on
the CPU test machine. The main thread sleeps in load_batch (line 44); "mute": the socket listens
and nobody answers (a server stuck behind a GIL that a rank's C code holds). Python 3.8+ (3.8:
an interpreter whose layout attach's memory reader does not know). The tests assert these lines:
keep them.
"""
import faulthandler
import http.server
import os
import socketserver
import sys
import tempfile
import threading
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        if self.path.split("?")[0] != "/handler/dump_traceback":
            body, code = b"Handler not found", 404
        else:
            with tempfile.TemporaryFile() as f:
                faulthandler.dump_traceback(f.fileno(), all_threads=True)
                f.seek(0)
                body, code = f.read(), 200
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST


def load_batch():
    time.sleep(600)


# WS_JOB_LOAD=LIB maps a library's file read-only, as tests/fixtures/pystack/sleeper.py does: a
# fake libnccl, so that attach takes the process for the rank RAS names
L = os.environ.get("WS_JOB_LOAD") and __import__("mmap").mmap(
    os.open(os.environ["WS_JOB_LOAD"], os.O_RDONLY), 0, prot=1)
if sys.argv[1:] == ["mute"]:
    mute = __import__("socket").socket(__import__("socket").AF_UNIX)
    mute.bind(os.environ["TORCH_WORKER_SERVER_SOCKET"])
    mute.listen(8)
else:
    srv = socketserver.UnixStreamServer(os.environ["TORCH_WORKER_SERVER_SOCKET"], Handler)
    threading.Thread(target=srv.serve_forever, name="worker_server", daemon=True).start()
print("ready", flush=True)
load_batch()
