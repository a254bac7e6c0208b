#!/usr/bin/env bash
# Installs the lab's tools from Debian packages if they are missing: MariaDB 10.11 (server and
# client), sysbench 1.0.20, fio. Idempotent: does nothing when all are present. Never leaves a
# system MariaDB service running: the lab uses only its private instance (lib/server.sh).
set -euo pipefail

need=()
command -v mariadbd >/dev/null 2>&1 || need+=(mariadb-server)
command -v mariadb >/dev/null 2>&1 || need+=(mariadb-client)
command -v mariadb-install-db >/dev/null 2>&1 || need+=(mariadb-server)
command -v sysbench >/dev/null 2>&1 || need+=(sysbench)
command -v fio >/dev/null 2>&1 || need+=(fio)
command -v pgrep >/dev/null 2>&1 || need+=(procps)

if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "install: missing ${need[*]} and not root; install them with apt-get" >&2
    exit 1
  fi
  echo "install: apt-get install ${need[*]}" >&2
  # policy-rc.d 101 keeps the package scripts from starting the system service.
  created_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    created_policy=1
  fi
  timeout 600 apt-get update -qq
  DEBIAN_FRONTEND=noninteractive timeout 1200 apt-get install -y -qq "${need[@]}" >/dev/null
  [ "$created_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
fi

# If a system service was started anyway (a machine without policy-rc.d), stop and disable it.
if [ "$(id -u)" = 0 ]; then
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet mariadb 2>/dev/null; then
    systemctl stop mariadb || true
    systemctl disable mariadb || true
  fi
  if [ -f /run/mysqld/mysqld.pid ]; then
    pid=$(cat /run/mysqld/mysqld.pid 2>/dev/null || true)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      echo "install: stopping the system mariadb service (pid $pid)" >&2
      (service mariadb stop || kill -TERM "$pid") >/dev/null 2>&1 || true
    fi
  fi
fi

mariadbd --version
sysbench --version
fio --version
