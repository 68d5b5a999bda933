#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests: `start` creates one (when none runs) on a free
# loopback port, owned by an unprivileged user (postgres when run as root), with trust
# authentication and fsync off (TRAINTRACKER_TEST_POSTGRES_FSYNC=on keeps it, for honest load
# figures), and prints its address; `stop` stops it and removes it.
# Usage: scripts/test-postgres.sh start|stop
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "error: PostgreSQL is not installed (Debian's postgresql; .ci/run installs it)" >&2
    exit 1
fi
dir=${TRAINTRACKER_TEST_POSTGRES_DIR:-/tmp/traintracker-test-postgres}
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "${1:-}" in
start)
    if [ -f "$dir/address" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status > /dev/null 2>&1; then
        cat "$dir/address"
        exit 0
    fi
    rm -rf "$dir" && mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U traintracker > "$dir/initdb.log" 2>&1
    # Nothing of the server may hold this script's output open: whoever reads it waits for its end.
    if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=${TRAINTRACKER_TEST_POSTGRES_FSYNC:-off} -c max_connections=200" start \
        < /dev/null > /dev/null 2>&1; then
        echo "error: the test cluster did not start; see $dir/server.log" >&2
        exit 1
    fi
    echo "postgres://traintracker@127.0.0.1:$port/postgres?sslmode=disable" | tee "$dir/address"
    ;;
stop)
    if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop > /dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
