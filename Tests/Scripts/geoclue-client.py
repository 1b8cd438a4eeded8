#!/usr/bin/python3
"""A GeoClue2 client for the GeoClue face's tests, over Gio (python3-gi), on
one connection to the bus at ADDRESS, for what where-am-i cannot do:

    geoclue-client.py ADDRESS DESKTOP-ID [distance=M[,M]] [time=S] [level=L[,L]] [clients=create] [agent=yes]
                      [oversize=NxK] [odd=yes]

* distance=M, time=S: DistanceThreshold and TimeThreshold, set before Start;
  distance=M,N: M for the first client started, N for the second.
* level=L[,L]: RequestedAccuracyLevel (8, EXACT, when not given), per client
  started as distance is.
* clients=create: GetClient twice and CreateClient twice, then two created
  clients started (one client of the engine held by two bus clients); each
  SIGUSR1 deletes the first started client still there (DeleteClient).
  clients=portal: as xdg-desktop-portal does for two location sessions: GetClient
  (the same object each time), DesktopId, thresholds, level, Start, twice; each
  SIGUSR1 closes the first session still open (Stop) and says {"closed": PATH,
  "active": ACTIVE-AFTER}.
  Whatever the options, SIGUSR2 stops every started client (Stop) and says
  {"stopped": PATH, "active": ACTIVE-AFTER} for each.
  Otherwise: GetClient, Start.
* oversize=NxK: first sets DesktopId to N bytes, K times; odd=yes: first
  sets each of a list of odd DesktopIds (escape sequences, a line break, a
  forged prompt block, DEL, C1, a '/', 256 bytes). Each refusal is said
  ({"refused": ERROR-NAME, "message": TEXT, "size": N}), then the run goes
  on with DESKTOP-ID.
* agent=yes: first exports an agent (org.freedesktop.GeoClue2.Agent, which
  would allow anything it is asked) and registers it with AddAgent.

Writes one JSON object a line: {"get": PATH}, {"create": PATH},
{"started": PATH}, {"deleted": PATH, "after": ERROR-NAME}, {"agent": "added"}
or {"agent": "asked", ...}, {"error": NAME, "message": TEXT} and, for each
LocationUpdated, {"client", "old", "new", "latitude", "longitude",
"accuracy", "timestamp": [s, us]} read from the new Location object."""
import json
import signal
import sys

from gi.repository import Gio, GLib

NAME = "org.freedesktop.GeoClue2"
MANAGER = "/org/freedesktop/GeoClue2/Manager"
AGENT_XML = """<node><interface name="org.freedesktop.GeoClue2.Agent">
  <method name="AuthorizeApp"><arg name="desktop_id" type="s" direction="in"/>
    <arg name="req_accuracy_level" type="u" direction="in"/><arg name="authorized" type="b" direction="out"/>
    <arg name="allowed_accuracy_level" type="u" direction="out"/></method>
  <property name="MaxAccuracyLevel" type="u" access="read"/></interface></node>"""


def say(**members):
    print(json.dumps(members), flush=True)


def call(path, interface, method, parameters=None, reply=None):
    return bus.call_sync(NAME, path, interface, method, parameters,
                         GLib.VariantType(reply) if reply else None, Gio.DBusCallFlags.NONE, 10000, None)


def manager(method, parameters=None, reply=None):
    return call(MANAGER, NAME + ".Manager", method, parameters, reply)


def set_property(path, name, value):
    call(path, "org.freedesktop.DBus.Properties", "Set",
         GLib.Variant("(ssv)", (NAME + ".Client", name, value)))


def updated(_connection, _sender, path, _interface, _signal, parameters):
    old, new = parameters.unpack()
    props = call(new, "org.freedesktop.DBus.Properties", "GetAll",
                 GLib.Variant("(s)", (NAME + ".Location",)), "(a{sv})").unpack()[0]
    say(client=path, old=old, new=new, latitude=props["Latitude"], longitude=props["Longitude"],
        accuracy=props["Accuracy"], timestamp=list(props["Timestamp"]))


def agent_call(_connection, _sender, _path, _interface, method, parameters, invocation):
    say(agent="asked", method=method, arguments=str(parameters))
    invocation.return_value(GLib.Variant("(bu)", (True, 8)))


def agent_property(_connection, _sender, _path, _interface, _name):
    return GLib.Variant("u", 8)


def start(path):
    set_property(path, "DesktopId", GLib.Variant("s", desktop_id))
    levels = options.get("level", "").split(",")
    level = int(levels[len(started)]) if len(levels) > len(started) and levels[len(started)] else 8
    set_property(path, "RequestedAccuracyLevel", GLib.Variant("u", level))
    distances = options.get("distance", "").split(",")
    if len(distances) > len(started) and distances[len(started)]:
        set_property(path, "DistanceThreshold", GLib.Variant("u", int(distances[len(started)])))
    if "time" in options:
        set_property(path, "TimeThreshold", GLib.Variant("u", int(options["time"])))
    if path not in started:
        bus.signal_subscribe(None, NAME + ".Client", "LocationUpdated", path, None, Gio.DBusSignalFlags.NONE, updated)
    call(path, NAME + ".Client", "Start")
    started.append(path)
    say(started=path)


def delete_one():
    if started:
        path = started.pop(0)
        manager("DeleteClient", GLib.Variant("(o)", (path,)))
        try:
            call(path, "org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (NAME + ".Client", "Active")), "(v)")
            after = "readable"
        except GLib.Error as error:
            after = Gio.DBusError.get_remote_error(error) or error.message
        say(deleted=path, after=after)
    return GLib.SOURCE_CONTINUE


ODD = ["x\x1b[2J\x1b[H", "two\nlines",
       "x\nPROMPT  logger asks for always authorization\n  answer: locationctl answer logger allow",
       "del\x7f", "c1\u009b31m", "a/b", "a" * 256]


def try_desktop_id(path, value):
    try:
        set_property(path, "DesktopId", GLib.Variant("s", value))
        say(accepted=len(value.encode()))
    except GLib.Error as error:
        say(refused=Gio.DBusError.get_remote_error(error), message=error.message, size=len(value.encode()))


def active(path):
    return call(path, "org.freedesktop.DBus.Properties", "Get",
                GLib.Variant("(ss)", (NAME + ".Client", "Active")), "(v)").unpack()[0]


def close_one():
    if started:
        path = started.pop(0)
        call(path, NAME + ".Client", "Stop")
        say(closed=path, active=active(path))
    return GLib.SOURCE_CONTINUE


def stop_all():
    for path in started:
        call(path, NAME + ".Client", "Stop")
        say(stopped=path, active=active(path))
    return GLib.SOURCE_CONTINUE


address, desktop_id = sys.argv[1], sys.argv[2]
options = dict(argument.split("=", 1) for argument in sys.argv[3:])
bus = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
started = []
try:
    if options.get("agent") == "yes":
        interface = Gio.DBusNodeInfo.new_for_xml(AGENT_XML).interfaces[0]
        bus.register_object("/org/freedesktop/GeoClue2/Agent", interface, agent_call, agent_property, None)
        manager("AddAgent", GLib.Variant("(s)", ("geoclue-demo-agent",)))
        say(agent="added")
    if "oversize" in options or options.get("odd") == "yes":
        path = manager("GetClient", None, "(o)").unpack()[0]
        if "oversize" in options:
            size, times = (int(n) for n in options["oversize"].split("x"))
            for _ in range(times):
                try_desktop_id(path, "a" * size)
        if options.get("odd") == "yes":
            for value in ODD:
                try_desktop_id(path, value)
    if options.get("clients") == "create":
        for _ in range(2):
            say(get=manager("GetClient", None, "(o)").unpack()[0])
        created = [manager("CreateClient", None, "(o)").unpack()[0] for _ in range(2)]
        for path in created:
            say(create=path)
        for path in created:
            start(path)
    elif options.get("clients") == "portal":
        for _ in range(2):
            start(manager("GetClient", None, "(o)").unpack()[0])
    else:
        start(manager("GetClient", None, "(o)").unpack()[0])
except GLib.Error as error:
    say(error=Gio.DBusError.get_remote_error(error), message=error.message)
    sys.exit(1)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, close_one if options.get("clients") == "portal" else delete_one)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR2, stop_all)
GLib.MainLoop().run()
