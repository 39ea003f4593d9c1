"""A local HTTP file server for offline download tests: 127.0.0.1, a free port, one thread per request.

It serves the files under a directory, honours single `Range: bytes=a-[b]` requests (206 / 416), answers 404
for anything missing, records every request, and can misbehave on purpose, once or a few times per file:
drop the connection after N body bytes (an interrupted transfer), answer an error status (a flaky server), or
ignore Range headers (a server without resume support).

    with LocalHTTPServer(root) as server:
        server.drop_after("big.tar.gz", 1000)
        url = server.url("big.tar.gz")
"""

from __future__ import annotations

import re
import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass
class Seen:
    method: str
    path: str
    range: str | None
    status: int


class LocalHTTPServer:
    def __init__(self, root):
        self.root = Path(root)
        self.requests: list[Seen] = []
        self.ignore_range = False
        self._drops: dict[str, int] = {}  # path -> body bytes to send before dropping (once)
        self._failures: dict[str, list] = {}  # path -> [status, times left]
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="local-http", daemon=True
        )

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/{name.lstrip('/')}"

    def drop_after(self, name: str, nbytes: int) -> None:
        """The next GET of `name` sends its headers and `nbytes` of body, then closes the connection."""
        with self._lock:
            self._drops["/" + name.lstrip("/")] = nbytes

    def fail(self, name: str, status: int, times: int = 1) -> None:
        """The next `times` requests for `name` are answered with `status` and no body."""
        with self._lock:
            self._failures["/" + name.lstrip("/")] = [status, times]

    def gets(self, name: str) -> list[Seen]:
        return [r for r in self.requests if r.method == "GET" and r.path == "/" + name.lstrip("/")]

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    # used by the handler
    def _take_failure(self, path: str) -> int | None:
        with self._lock:
            entry = self._failures.get(path)
            if not entry or entry[1] <= 0:
                return None
            entry[1] -= 1
            return entry[0]

    def _take_drop(self, path: str) -> int | None:
        with self._lock:
            return self._drops.pop(path, None)

    def _record(self, seen: Seen) -> None:
        with self._lock:
            self.requests.append(seen)


def _parse_range(header: str | None, size: int) -> tuple[int, int] | None | str:
    """(first, last) inclusive for a satisfiable single range, None without one, 'unsatisfiable' otherwise."""
    m = re.fullmatch(r"bytes=(\d+)-(\d*)", (header or "").strip())
    if not m:
        return None
    first = int(m.group(1))
    last = min(int(m.group(2)), size - 1) if m.group(2) else size - 1
    if first >= size or last < first:
        return "unsatisfiable"
    return first, last


def _handler_for(server: LocalHTTPServer):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # one request per connection: a dropped connection drops one transfer

        def log_message(self, *args):  # keep pytest output clean
            pass

        def do_HEAD(self):
            self._serve(body=False)

        def do_GET(self):
            self._serve(body=True)

        def _answer(self, status: int, headers: dict, range_header) -> None:
            server._record(Seen(self.command, self.path, range_header, status))
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, str(value))
            self.end_headers()

        def _serve(self, body: bool) -> None:
            range_header = self.headers.get("Range")
            status = server._take_failure(self.path)
            if status is not None:
                return self._answer(status, {"Content-Length": 0}, range_header)
            file = (server.root / self.path.lstrip("/")).resolve()
            if server.root.resolve() not in file.parents or not file.is_file():
                return self._answer(404, {"Content-Length": 0}, range_header)
            data = file.read_bytes()
            wanted = None if server.ignore_range else _parse_range(range_header, len(data))
            if wanted == "unsatisfiable":
                return self._answer(416, {"Content-Range": f"bytes */{len(data)}", "Content-Length": 0}, range_header)
            headers = {"Content-Type": "application/octet-stream", "Accept-Ranges": "bytes"}
            first, last = wanted if wanted else (0, len(data) - 1)
            payload = data[first : last + 1]
            headers["Content-Length"] = len(payload)
            if wanted:
                headers["Content-Range"] = f"bytes {first}-{last}/{len(data)}"
            self._answer(206 if wanted else 200, headers, range_header)
            if body:
                self._send_body(payload)

        def _send_body(self, payload: bytes) -> None:
            drop = server._take_drop(self.path)
            self.wfile.write(payload if drop is None else payload[:drop])
            self.wfile.flush()
            if drop is not None:
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)

    return Handler
