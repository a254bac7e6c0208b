package version

import (
	"slices"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want V
	}{
		{"8.0.18", V{MySQL, 8, 0, 18}},
		{"5.5.22", V{MySQL, 5, 5, 22}},
		{"8.4.2", V{MySQL, 8, 4, 2}},
		{"percona-5.5.30", V{Percona, 5, 5, 30}},
		{"mariadb-10.11.6", V{MariaDB, 10, 11, 6}},
	} {
		got, err := Parse(c.in)
		if err != nil || got != c.want || got.String() != c.in {
			t.Errorf("Parse(%q) = %v (%s), %v; want %v", c.in, got, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "8.0", "8.0.x", "9.1.0", "5.1.73", "mariadb-10.5.9", "oracle-8.0.1", "8.0.18.1", "percona-8.0.30"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func steps(t *testing.T, v string, policy Policy, op Op) ([]Step, bool) {
	t.Helper()
	r, whatIf, ok := Path(MustParse(v), policy, op)
	if !ok {
		t.Fatalf("%s %s %s: no path", v, policy, op)
	}
	return r.Steps, whatIf
}

// TestPaths: the routine sequences the version table gives for the cases the source notes
// single out.
func TestPaths(t *testing.T) {
	for _, c := range []struct {
		v      string
		policy Policy
		op     Op
		want   []Step
		whatIf bool
	}{
		{"5.5.20", "fullscan", OpDropTable, []Step{FreePages, AHILRUWalk, RemoveAllWalk}, false}, // two LRU walks
		{"5.5.30", "fullscan", OpDropTable, []Step{FreePages, FlushNoWrite}, false},              // 5.5.23 fix
		{"5.6.2", "fullscan", OpDropTable, []Step{FreePages, AHILRUWalk, RemoveAllWalk}, false},  // before the fix
		{"5.6.4", "fullscan", OpDropTable, []Step{FreePages, AHILRUWalk, RemoveAllWalk}, false},
		{"5.6.5", "fullscan", OpDropTable, []Step{FreePages, FlushNoWrite}, false},
		{"5.6.40", "fullscan", OpDropTable, []Step{FreePages, FlushNoWrite}, false},
		{"5.6.40", "fullscan", OpTruncateTable, []Step{AHILRUWalk, RemoveAllWalk}, false},
		{"5.7.30", "fullscan", OpTruncateTable, []Step{FreePages, AHILRUWalk, RemoveAllWalk}, false},
		{"8.0.18", "fullscan", OpDropTable, []Step{AHITableRounds, FlushNoWrite}, false},
		{"8.0.18", "fullscan", OpTempTruncate, []Step{AHILRUWalk, RemoveAllWalk}, false},
		{"8.0.30", "lazy", OpDropTable, []Step{AHITableRounds, Lazy}, false},
		{"8.4.2", "lazy", OpDiscard, []Step{Lazy}, false},
		{"8.0.30", "fullscan", OpDropTable, []Step{AHITableRounds, FlushNoWrite}, true}, // what-if
		{"5.6.40", "lazy", OpDropTable, []Step{AHITableRounds, Lazy}, true},             // what-if
		{"percona-5.5.30", "percona_lazy", OpDropTable, []Step{FreePages, MarkWalk, ChunkAHIPass}, false},
		{"percona-5.5.30", "percona_lazy", OpTruncateTable, []Step{AHILRUWalk, RemoveAllWalk}, false},
		{"percona-5.6.40", "percona_lazy", OpDropTable, []Step{FreePages, MarkWalk, ChunkAHIPass}, true},
		{"percona-5.6.40", "fullscan", OpDropTable, []Step{FreePages, FlushNoWrite}, false},
		{"mariadb-10.11.6", "lazy", OpDropTable, nil, false},
		{"mariadb-10.11.6", "lazy", OpDiscard, []Step{FlushRemove}, false},
	} {
		got, whatIf := steps(t, c.v, c.policy, c.op)
		if !slices.Equal(got, c.want) || whatIf != c.whatIf {
			t.Errorf("%s %s %s: %v (what-if %v), want %v (what-if %v)", c.v, c.policy, c.op, got, whatIf, c.want, c.whatIf)
		}
	}
	if _, _, ok := Path(MustParse("5.5.30"), "fullscan", OpExport); ok {
		t.Error("5.5 has no FLUSH TABLES ... FOR EXPORT")
	}
	if _, _, ok := Path(MustParse("5.6.40"), "fullscan", OpObserverFlush); ok {
		t.Error("5.6 has no flush observer")
	}
}

// TestEveryVersionHasItsCore: every accepted family runs DROP, TRUNCATE and DISCARD under its
// native policy.
func TestEveryVersionHasItsCore(t *testing.T) {
	for _, v := range []string{"5.5.10", "5.5.30", "5.6.40", "5.7.30", "8.0.18", "8.0.30", "8.4.2", "percona-5.5.30", "percona-5.6.40", "percona-5.7.30", "mariadb-10.11.6"} {
		pv := MustParse(v)
		for _, op := range []Op{OpDropTable, OpTruncateTable, OpDiscard} {
			if _, whatIf, ok := Path(pv, Policy(TraitsOf(pv).NativePolicy), op); !ok || whatIf {
				t.Errorf("%s native %s: ok %v what-if %v", v, op, ok, whatIf)
			}
		}
	}
}

func TestTraits(t *testing.T) {
	if tr := TraitsOf(MustParse("5.5.30")); !tr.BigMutex || tr.FlushRetrySleep != 20*time.Millisecond || tr.AHIParts != 1 || !tr.FreePagesOnDrop {
		t.Errorf("5.5: %+v", tr)
	}
	if tr := TraitsOf(MustParse("5.7.30")); !tr.BigMutex || tr.AHIParts != 8 || !tr.TruncateInPlace {
		t.Errorf("5.7: %+v", tr)
	}
	if tr := TraitsOf(MustParse("8.0.18")); tr.BigMutex || tr.NativePolicy != "fullscan" || !tr.SessionTempTablespaces {
		t.Errorf("8.0.18: %+v", tr)
	}
	if tr := TraitsOf(MustParse("8.0.23")); tr.NativePolicy != "lazy" {
		t.Errorf("8.0.23: %+v", tr)
	}
	if tr := TraitsOf(MustParse("mariadb-10.11.6")); !tr.OneInstance || tr.AHIDefault || !tr.RedoLoggedBuild || tr.LockWaitTimeout != 86400*time.Second {
		t.Errorf("mariadb: %+v", tr)
	}
}

// TestNoGaps: for every version family and every table key, an operation the version has
// (Has) finds a row, what-ifs included — the lookup model/maint makes at load, where a gap
// is an error.
func TestNoGaps(t *testing.T) {
	for _, v := range []string{"5.5.10", "5.5.30", "5.6.3", "5.6.40", "5.7.30", "8.0.18", "8.0.30", "8.4.2", "percona-5.5.30", "percona-5.6.40", "percona-5.7.30", "mariadb-10.11.6"} {
		pv := MustParse(v)
		for _, p := range []Policy{PolicyFullscan, PolicyLazy, PolicyPerconaLazy} {
			for _, op := range []Op{OpDropTable, OpTruncateTable, OpDiscard, OpUndoTruncate, OpTempTruncate, OpExport, OpEncrypt, OpObserverFlush} {
				if _, _, ok := Path(pv, p, op); !ok && Has(pv, op) {
					t.Errorf("%s %s %s: the version has the operation but the table gives no row", v, p, op)
				}
			}
		}
	}
	if _, _, ok := Path(MustParse("5.6.40"), PolicyFullscan, OpObserverFlush); ok || Has(MustParse("5.6.40"), OpObserverFlush) {
		t.Error("5.6 has no flush observer")
	}
}
