#!/usr/bin/env python3
"""A stand-in for PyTorch's per-rank WorkerServer (torch/csrc/distributed/c10d/control_plane/
WorkerServer.cpp): GET /handler/ lists handlers, POST /handler/dump_nccl_trace_pickle answers
with a flight-recorder dump file, as cpp-httplib does (Content-Length, application/octet-stream).
Lowercase true/false are required for the query parameters, as torch's handler requires (else
400). Listens on a Unix socket (--unix PATH) or on 127.0.0.1 (an ephemeral port written to
--port-file). Modes: normal, error (HTTP 500), oversize, freeze, garbage, chunked.
"""
import argparse
import http.server
import os
import socketserver
import sys
import time
import urllib.parse


def make_handler(a):
    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path == "/handler/":
                self._send(200, b'["ping","dump_nccl_trace_pickle","dump_nccl_trace_json"]',
                           "application/json")
            else:
                self._send(404, b"not found", "text/plain")

        def do_POST(self):
            u = urllib.parse.urlparse(self.path)
            if u.path != "/handler/dump_nccl_trace_pickle":
                self._send(404, b"Handler not found", "text/plain")
                return
            for k, v in urllib.parse.parse_qsl(u.query):
                if v not in ("true", "false"):
                    self._send(400, b"bad parameter " + k.encode(), "text/plain")
                    return
            if a.mode == "freeze":
                time.sleep(60)
                return
            if a.mode == "garbage":
                self.wfile.write(b"SSH-2.0-OpenSSH\r\n")
                return
            if a.mode == "error":
                self._send(500, b"Handler dump_nccl_trace_pickle failed", "text/plain")
                return
            if a.mode == "chunked":
                self.send_response(200)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                self.wfile.write(b"0\r\n\r\n")
                return
            if a.mode == "oversize":
                self.send_response(200)
                self.send_header("Content-Length", str(1 << 30))
                self.end_headers()
                return
            with open(a.dump, "rb") as fh:
                self._send(200, fh.read(), "application/octet-stream")

        def _send(self, code, body, ctype):
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return H


class UnixHTTPServer(socketserver.UnixStreamServer):
    def get_request(self):
        req, _ = super().get_request()
        return req, ("local", 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("--unix")
    ap.add_argument("--port-file")
    ap.add_argument("--mode", default="normal")
    ap.add_argument("--requests", type=int, default=10)
    a = ap.parse_args()
    h = make_handler(a)
    if a.unix:
        if os.path.exists(a.unix):
            os.unlink(a.unix)
        srv = UnixHTTPServer(a.unix, h)
    else:
        srv = http.server.HTTPServer(("127.0.0.1", 0), h)
        with open(a.port_file + ".tmp", "w") as fh:
            fh.write(str(srv.server_address[1]))
        os.rename(a.port_file + ".tmp", a.port_file)
    srv.timeout = 30
    for _ in range(a.requests):
        srv.handle_request()
    return 0


if __name__ == "__main__":
    sys.exit(main())
