#!/bin/sh
# Prints the variable names of the installed MariaDB server (mariadbd --verbose --help),
# with underscores, sorted: the MariaDB section of mysqlvars.txt.
#   apt-get install mariadb-server-core && sh model/config/mysqlvars_mariadb.sh
set -e
mariadbd --no-defaults --verbose --help 2>/dev/null |
	sed -n '/^Variables (--variable-name=value)/,/^$/p' | sed 1,2d |
	awk '{print $1}' | tr - _ | grep -v '^_' | sed '/^$/d' | LC_ALL=C sort -u
