# shellcheck shell=bash
# A private MariaDB instance: its own datadir, socket and pid file under $LAB_TMP, listening on
# 127.0.0.1 only (a free port) and on its socket; never a system service. Started with
# --no-defaults so no /etc/mysql file changes it: every setting is on the command line below
# and recorded in the results (server_args.txt, variables.tsv).

# Settings a plan may change before server_start. The defaults are MariaDB 10.11's except the
# redo log size (1 GiB instead of 96 MiB, so the baselines are not dominated by checkpoint
# flushing) and the buffer pool dump/load (off, so each pool size starts cold).
: "${LOG_FILE_SIZE:=1G}"
: "${FLUSH_LOG_AT_TRX_COMMIT:=1}"
: "${SERVER_EXTRA_ARGS:=}"

MARIADB_CLIENT=(mariadb --no-defaults -uroot)
SERVER_PID=
SERVER_PORT=

server_init() {
  [ -n "${LAB_TMP:-}" ] || lab_die "LAB_TMP not set"
  rm -rf "$LAB_TMP/data"
  mkdir -p "$LAB_TMP/data"
  local user_args=()
  [ "$(id -u)" = 0 ] && user_args=(--user=root)
  lab_log "mariadb-install-db into $LAB_TMP/data"
  timeout 300 mariadb-install-db --no-defaults "${user_args[@]}" --datadir="$LAB_TMP/data" \
    --auth-root-authentication-method=normal --skip-test-db >"$LAB_TMP/install-db.log" 2>&1 ||
    { cat "$LAB_TMP/install-db.log" >&2; lab_die "mariadb-install-db failed"; }
}

# server_args POOL: the command line of mariadbd for a buffer pool of POOL (e.g. 512M).
server_args() {
  local pool=$1
  local user_args=()
  [ "$(id -u)" = 0 ] && user_args=(--user=root)
  SERVER_ARGS=(
    --no-defaults "${user_args[@]}"
    --datadir="$LAB_TMP/data" --socket="$LAB_TMP/sock" --pid-file="$LAB_TMP/mariadbd.pid"
    --port="$SERVER_PORT" --bind-address=127.0.0.1 --skip-name-resolve
    --log-error="$LAB_TMP/error.log" --tmpdir="$LAB_TMP"
    --innodb-buffer-pool-size="$pool"
    --innodb-log-file-size="$LOG_FILE_SIZE"
    --innodb-flush-log-at-trx-commit="$FLUSH_LOG_AT_TRX_COMMIT"
    --innodb-buffer-pool-dump-at-shutdown=0 --innodb-buffer-pool-load-at-startup=0
    --max-connections=200 --max-prepared-stmt-count=1000000
  )
  # shellcheck disable=SC2206
  [ -n "$SERVER_EXTRA_ARGS" ] && SERVER_ARGS+=($SERVER_EXTRA_ARGS)
  return 0
}

sql() { timeout "${SQL_TIMEOUT:-600}" "${MARIADB_CLIENT[@]}" -S "$LAB_TMP/sock" -B -N -e "$1"; }
sql_named() { timeout "${SQL_TIMEOUT:-600}" "${MARIADB_CLIENT[@]}" -S "$LAB_TMP/sock" -B -e "$1"; }

server_start() {
  local pool=$1
  [ -z "$SERVER_PID" ] || lab_die "server already running (pid $SERVER_PID)"
  SERVER_PORT=$(free_port) || lab_die "no free port"
  server_args "$pool"
  lab_log "start mariadbd pool=$pool port=$SERVER_PORT"
  # LAB_PRIO's nice and ionice exec mariadbd, so $! is mariadbd's own PID.
  "${LAB_PRIO[@]}" mariadbd "${SERVER_ARGS[@]}" >>"$LAB_TMP/mariadbd.out" 2>&1 &
  SERVER_PID=$!
  echo "$SERVER_PID" >"$LAB_TMP/server.pid"
  local i
  for ((i = 0; i < 240; i++)); do
    if timeout 5 mariadb-admin --no-defaults -uroot -S "$LAB_TMP/sock" ping >/dev/null 2>&1; then
      sql "CREATE DATABASE IF NOT EXISTS sbtest" >/dev/null
      return 0
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || { tail -30 "$LAB_TMP/error.log" >&2; SERVER_PID=; lab_die "mariadbd exited during start"; }
    sleep 0.5
  done
  tail -30 "$LAB_TMP/error.log" >&2
  lab_die "mariadbd did not answer within 120 s"
}

# server_stop: clean shutdown (bounded), then TERM, then KILL.
server_stop() {
  [ -n "$SERVER_PID" ] || return 0
  lab_log "stop mariadbd pid=$SERVER_PID"
  timeout 30 mariadb-admin --no-defaults -uroot -S "$LAB_TMP/sock" shutdown >/dev/null 2>&1 || kill -TERM "$SERVER_PID" 2>/dev/null || true
  local i
  for ((i = 0; i < 600; i++)); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    lab_log "mariadbd did not stop within 300 s: KILL"
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
  rm -f "$LAB_TMP/server.pid"
}

server_restart() {
  server_stop
  server_start "$1"
}

# server_record DIR: the server's command line, SHOW GLOBAL VARIABLES and the full SHOW GLOBAL
# STATUS at this moment.
server_record() {
  local dir=$1
  printf '%s\n' "${LAB_PRIO[@]}" mariadbd "${SERVER_ARGS[@]}" >"$dir/server_args.txt"
  sql_named "SHOW GLOBAL VARIABLES" >"$dir/variables.tsv"
  sql_named "SELECT VERSION()" >"$dir/version.txt"
}
