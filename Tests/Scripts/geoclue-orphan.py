#!/usr/bin/python3
"""A GeoClue2 client whose bus connection outlives the process that opened it,
for the GeoClue face's tests (GeoClueRunTests): the bus daemon records the pid
of the process that connected, and that process is gone when the client calls
Start, so nothing the bus says can pin the client's process.

    geoclue-orphan.py ADDRESS DESKTOP-ID

The script connects a socket to the bus at ADDRESS (unix:path=...), forks and
exits; its child, which inherited the socket, waits for it to be gone, then
authenticates, says Hello (over Gio, python3-gi), and calls GetClient, sets
DesktopId and calls Start. Writes one JSON object a line: {"orphan": PID,
"connected-by": PID}, then {"started": PATH} or {"error": NAME, "message":
TEXT}. Ends by itself within 60 s."""
import json
import os
import signal
import socket
import sys
import time


def say(**members):
    print(json.dumps(members), flush=True)


def main():
    address, desktop_id = sys.argv[1], sys.argv[2]
    if not address.startswith("unix:path="):
        sys.exit("ADDRESS must be unix:path=...")
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(address[len("unix:path="):])
    connected_by = os.getpid()
    if os.fork() != 0:
        # The bus's record of this connection names this process: it goes now.
        os._exit(0)
    signal.alarm(60)
    while os.getppid() == connected_by:
        time.sleep(0.01)
    # Gio only now, in the child alone (GDBus starts a thread of its own).
    from gi.repository import Gio, GLib

    say(orphan=os.getpid(), **{"connected-by": connected_by})
    stream = Gio.Socket.new_from_fd(connection.detach()).connection_factory_create_connection()
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    bus = Gio.DBusConnection.new_sync(stream, None, flags, None, None)
    name = "org.freedesktop.GeoClue2"
    try:
        (path,) = bus.call_sync(
            name, "/org/freedesktop/GeoClue2/Manager", "org.freedesktop.GeoClue2.Manager", "GetClient", None,
            GLib.VariantType("(o)"), Gio.DBusCallFlags.NONE, 30000, None).unpack()
        bus.call_sync(
            name, path, "org.freedesktop.DBus.Properties", "Set",
            GLib.Variant("(ssv)", ("org.freedesktop.GeoClue2.Client", "DesktopId", GLib.Variant("s", desktop_id))),
            None, Gio.DBusCallFlags.NONE, 30000, None)
        bus.call_sync(name, path, "org.freedesktop.GeoClue2.Client", "Start", None, None, Gio.DBusCallFlags.NONE, 30000, None)
        say(started=path)
    except GLib.Error as error:
        say(error=Gio.DBusError.get_remote_error(error), message=error.message)


main()
