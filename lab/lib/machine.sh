#!/usr/bin/env bash
# The machine description written next to every plan's results.
echo "== date"; date -u +%Y-%m-%dT%H:%M:%SZ
echo "== uname"; uname -a
echo "== lscpu"; lscpu
echo "== free -b"; free -b
echo "== lsblk"; lsblk -b -o NAME,SIZE,TYPE,ROTA,PHY-SEC,LOG-SEC,MIN-IO,SCHED,MOUNTPOINTS
echo "== filesystem of the lab's tmpdir"; df -T "${LAB_TMP:-/var/tmp}"; findmnt -T "${LAB_TMP:-/var/tmp}" || true
echo "== versions"; mariadbd --version; sysbench --version; fio --version 2>/dev/null || true
echo "== os"; cat /etc/os-release 2>/dev/null | head -4
