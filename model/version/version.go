// Package version is the server versions ddlsim models, as data: a version string
// (`8.0.18`, `5.6.40`, `8.4.2`, `percona-5.5.30`, `mariadb-10.11.6`) parsed into a flavour and
// numbers, the structural traits of each version family (mutex layout, instances, retry
// sleeps, lazy drop, AHI partitions, defaults), and the table that maps each (flavour, version
// range, operation) to the InnoDB routines and buffer-pool walks that version calls, each row
// citing the source it was read from (docs/innodb-source.md §8 is this table).
package version

import (
	"fmt"
	"strconv"
	"strings"
)

// Flavor is the server a version belongs to.
type Flavor string

const (
	MySQL   Flavor = "mysql"
	Percona Flavor = "percona"
	MariaDB Flavor = "mariadb"
)

// V is one server version.
type V struct {
	Flavor              Flavor
	Major, Minor, Patch int
}

// Families lists the accepted version families, for messages and `ddlsim list`.
var Families = []string{"5.5.N", "5.6.N", "5.7.N", "8.0.N", "8.4.N", "percona-5.5.N", "percona-5.6.N", "percona-5.7.N", "mariadb-10.11.N"}

// Parse reads `MAJOR.MINOR.PATCH` with an optional flavour prefix (`percona-`, `mariadb-`).
func Parse(s string) (V, error) {
	var v V
	rest := strings.TrimSpace(s)
	v.Flavor = MySQL
	for _, f := range []Flavor{Percona, MariaDB, MySQL} {
		if p, ok := strings.CutPrefix(rest, string(f)+"-"); ok {
			v.Flavor, rest = f, p
			break
		}
	}
	parts := strings.Split(rest, ".")
	if len(parts) != 3 {
		return V{}, fmt.Errorf("expected a version such as 8.0.18, 5.6.40, percona-5.5.30 or mariadb-10.11.6")
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 999 {
			return V{}, fmt.Errorf("expected a version such as 8.0.18, 5.6.40, percona-5.5.30 or mariadb-10.11.6")
		}
		*[]*int{&v.Major, &v.Minor, &v.Patch}[i] = n
	}
	if !v.known() {
		return V{}, fmt.Errorf("version %s is not modelled: expected one of %s", v, strings.Join(Families, ", "))
	}
	return v, nil
}

// MustParse is Parse for versions known to be valid (tests, defaults).
func MustParse(s string) V {
	v, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return v
}

func (v V) known() bool {
	switch v.Flavor {
	case MySQL:
		return v.Major == 5 && v.Minor >= 5 && v.Minor <= 7 || v.Major == 8 && (v.Minor == 0 || v.Minor == 4)
	case Percona:
		return v.Major == 5 && v.Minor >= 5 && v.Minor <= 7
	case MariaDB:
		return v.Major == 10 && v.Minor == 11
	}
	return false
}

func (v V) String() string {
	s := fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	if v.Flavor != MySQL {
		s = string(v.Flavor) + "-" + s
	}
	return s
}

// num orders versions of one numbering.
func (v V) num() int { return v.Major*1_000_000 + v.Minor*1_000 + v.Patch }

// AtLeast reports whether v is at least maj.min.patch in its own numbering.
func (v V) AtLeast(maj, min, patch int) bool { return v.num() >= maj*1_000_000+min*1_000+patch }

// Before reports whether v is older than maj.min.patch in its own numbering.
func (v V) Before(maj, min, patch int) bool { return !v.AtLeast(maj, min, patch) }

// InnoDB is the MySQL version whose InnoDB code a version's storage engine follows where the
// flavour does not differ (Percona Server is MySQL's InnoDB plus patches; MariaDB 10.11's
// InnoDB forked from 5.7 and is modelled by its differences, Traits). Index builds use it.
func (v V) InnoDB() V {
	switch v.Flavor {
	case Percona:
		return V{MySQL, v.Major, v.Minor, v.Patch}
	case MariaDB:
		return V{MySQL, 5, 7, 99}
	}
	return v
}

// MySQLFamily is "5.5", "5.6", "5.7", "8.0" or "8.4" for the MySQL code a version follows.
func (v V) MySQLFamily() string {
	b := v.InnoDB()
	return fmt.Sprintf("%d.%d", b.Major, b.Minor)
}
