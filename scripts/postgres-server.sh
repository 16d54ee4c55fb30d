#!/usr/bin/env bash
# A private PostgreSQL cluster (Debian's postgresql) for the tests of presence shared by several
# `miccheck serve` nodes, and for trying them by hand. It never touches a server of the machine's own.
#
#   scripts/postgres-server.sh start   DIR [PORT]   initdb into DIR (once) and start it on 127.0.0.1:PORT
#   scripts/postgres-server.sh stop    DIR          stop it (fast: connections are cut)
#   scripts/postgres-server.sh restart DIR          stop and start it again, keeping its data
#   scripts/postgres-server.sh kill    DIR          stop it at once, as a crash would (immediate mode)
#   scripts/postgres-server.sh url     DIR          print its address (postgres://postgres@127.0.0.1:PORT/postgres)
#
# PORT defaults to 55432. fsync is off (a test database need not survive a power cut) unless
# MICCHECK_PG_FSYNC=on. Trust authentication on loopback and the Unix socket in DIR only. As root the
# cluster runs as the `postgres` user (PostgreSQL refuses to run as root); otherwise as the caller.
set -euo pipefail
cmd=${1:-}
dir=${2:-}
[ -n "$dir" ] || { echo "usage: postgres-server.sh start|stop|restart|kill|url DIR [PORT]" >&2; exit 64; }
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "postgres-server: PostgreSQL is not installed (bash scripts/setup.sh postgresql)" >&2; exit 69; }
as() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
pgctl() { as "'$bin/pg_ctl' -D '$dir/data' $*"; }
case "$cmd" in
start)
    port=${3:-55432}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    chmod 700 "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as "'$bin/initdb' -D '$dir/data' -A trust -U postgres --no-sync" >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
        echo "$port" >"$dir/port"
    fi
    port=$(cat "$dir/port")
    pgctl status >/dev/null 2>&1 && exit 0
    pgctl "-w -l '$dir/log' -o \"-k '$dir' -p $port -h 127.0.0.1 -c fsync=${MICCHECK_PG_FSYNC:-off} -c max_connections=200\" start" >/dev/null \
        || { tail -20 "$dir/log" >&2; exit 1; }
    ;;
stop) pgctl status >/dev/null 2>&1 && pgctl "-w -m fast stop" >/dev/null; true ;;
kill) pgctl status >/dev/null 2>&1 && pgctl "-m immediate stop" >/dev/null; true ;;
restart)
    bash "$0" stop "$dir"
    bash "$0" start "$dir"
    ;;
url) echo "postgres://postgres@127.0.0.1:$(cat "$dir/port")/postgres?sslmode=disable" ;;
*) echo "usage: postgres-server.sh start|stop|restart|kill|url DIR [PORT]" >&2; exit 64 ;;
esac
