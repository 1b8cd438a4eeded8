#!/usr/bin/python3
"""An attacker on the control socket, for the fault suite's lockout case
(Tests/IntegrationTests/Faults/LockoutFaults.swift, issue #9).

Usage: hold-connections.py SOCKET COUNT MODE SECONDS

Opens COUNT connections to the Unix socket SOCKET one after the other, each
saying hello (which tells a served connection from a refused one), and holds
the served ones for SECONDS:
  idle   sends nothing
  blank  sends a blank line every second (which must not keep it open)
  watch  sends a watch request and never reads the events
A connection the daemon refuses gets a "busy" error line and is closed.
Prints one line once all are opened, "held H busy B", then, at the end,
"closed C" (how many of the held ones the daemon closed meanwhile).
"""
import json
import select
import socket
import sys
import time


def first_line(conn, timeout):
    """The first line the daemon sends within `timeout` seconds, or None."""
    conn.setblocking(False)
    data = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([conn], [], [], left)[0]:
            return None
        try:
            chunk = conn.recv(4096)
        except (BlockingIOError, InterruptedError):
            continue
        except OSError:
            return b""
        if not chunk:
            return data
        data += chunk
    return data.split(b"\n", 1)[0]


def main():
    path, count, mode, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    held, busy = [], 0
    for _ in range(count):
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(path)
        # A hello tells served from refused: a refused connection gets "busy" whatever it sends.
        try:
            conn.sendall(b'{"cmd":"hello","id":0}\n')
        except OSError:
            pass
        line = first_line(conn, 30)
        try:
            reply = json.loads(line) if line else None
        except ValueError:
            reply = None
        if reply is not None and reply.get("ok") is True:
            if mode == "watch":
                conn.sendall(b'{"cmd":"watch","id":1}\n')
            held.append(conn)
        else:
            if reply is not None and reply.get("error", {}).get("code") == "busy":
                busy += 1
            conn.close()
    print(f"held {len(held)} busy {busy}", flush=True)
    closed = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for index, conn in enumerate(held):
            if index in closed:
                continue
            try:
                if mode == "blank":
                    conn.send(b" \n")
                readable = select.select([conn], [], [], 0)[0]
                if readable and mode != "watch" and conn.recv(4096, socket.MSG_PEEK) == b"":
                    closed.add(index)
            except OSError:
                closed.add(index)
        time.sleep(1)
    print(f"closed {len(closed)}", flush=True)


if __name__ == "__main__":
    main()
