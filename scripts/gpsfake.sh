# scripts/gpsfake.sh — sourced (". scripts/gpsfake.sh") by the sh scripts
# that run gpsd from gpsfake: scripts/demo, scripts/package-check and
# scripts/systemd-check. One way to wait for something, to pick a port, and
# to start gpsfake and stop it with the gpsd it started.

# waitfor SECONDS COMMAND...: runs COMMAND (output discarded) every 0.1 s
# until it succeeds; non-zero when SECONDS pass first.
waitfor() {
    waitfor_limit=$1
    shift
    waitfor_i=0
    while ! "$@" >/dev/null 2>&1; do
        waitfor_i=$((waitfor_i + 1))
        if [ "$waitfor_i" -gt $((waitfor_limit * 10)) ]; then return 1; fi
        sleep 0.1
    done
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_gpsfake PORT LOG SECONDS GPSFAKE-ARGUMENTS...: `gpsfake -q -P PORT`
# with the arguments, its output to LOG, in a session and process group of
# its own (setsid), which the gpsd it starts shares; sets gpsfake_pid. Then
# waits up to SECONDS for gpsd to accept on 127.0.0.1:PORT: non-zero if it
# does not (LOG says why).
start_gpsfake() {
    gpsfake_port=$1
    gpsfake_log=$2
    gpsfake_wait=$3
    shift 3
    setsid gpsfake -q -P "$gpsfake_port" "$@" >"$gpsfake_log" 2>&1 &
    gpsfake_pid=$!
    waitfor "$gpsfake_wait" python3 -c "import socket; socket.create_connection(('127.0.0.1', $gpsfake_port), 1)"
}

# stop_gpsfake: SIGTERM to gpsfake's process group, then SIGKILL, since
# gpsfake catches SIGTERM and, its pass played, can sleep on through it.
# (dash's kill names a group as "-PID"; it refuses "-- -PID".)
stop_gpsfake() {
    [ -n "${gpsfake_pid:-}" ] || return 0
    kill -TERM "-$gpsfake_pid" 2>/dev/null || true
    sleep 0.3
    kill -KILL "-$gpsfake_pid" 2>/dev/null || true
}
