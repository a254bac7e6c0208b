package schema

import (
	"reflect"
	"testing"
)

func names(ds []IndexDef) (out []string) {
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

func TestInsertBenchmarkNewIndexes(t *testing.T) {
	ib := NewInsertBenchmarkTable("ib", "ib", 5, 1_000_000, 0, 16384)
	if len(ib.Secondary) != 0 || ib.Kind != KindInsertBenchmark {
		t.Fatalf("loaded table: %d secondaries, kind %q", len(ib.Secondary), ib.Kind)
	}
	// 46 column bytes + 13 system + 5 header at a 15/16 fill: 237 rows per leaf.
	if ib.Primary.LeafRecs != 237 {
		t.Errorf("PK rows per leaf %d, want 237", ib.Primary.LeafRecs)
	}
	for _, c := range []struct {
		cols []string
		n    int
		want []string
	}{
		{[]string{"price", "customerid"}, 3, []string{"marketsegment", "registersegment", "pdc"}},
		{[]string{"cashregisterid", "price", "customerid"}, 2, []string{"registersegment", "pdc"}},
		{[]string{"productid"}, 1, []string{"new_1"}},
		{[]string{"price", "customerid"}, 4, []string{"marketsegment", "registersegment", "pdc", "new_4"}},
	} {
		got := ib.NewIndexes(c.cols, c.n)
		if !reflect.DeepEqual(names(got), c.want) {
			t.Errorf("%v × %d: %v, want %v", c.cols, c.n, names(got), c.want)
		}
	}
	if d := ib.NewIndexes([]string{"productid"}, 1)[0]; d.EntryBytes != 4+8 {
		t.Errorf("index on productid: %d entry bytes, want 12", d.EntryBytes)
	}
	// With marketsegment present, a statement on its columns builds a new index on them; one
	// on registersegment's builds the two missing benchmark indexes.
	one := NewInsertBenchmarkTable("ib", "ib", 5, 1_000_000, 1, 16384)
	if got := names(one.NewIndexes([]string{"price", "customerid"}, 1)); !reflect.DeepEqual(got, []string{"new_1"}) {
		t.Errorf("marketsegment's columns after marketsegment: %v", got)
	}
	if got := names(one.NewIndexes([]string{"cashregisterid", "price", "customerid"}, 2)); !reflect.DeepEqual(got, []string{"registersegment", "pdc"}) {
		t.Errorf("after marketsegment: %v", got)
	}
	sb := NewSysbenchTable("sbtest1", "sbtest", 6, 1_000_000, 1, 16384)
	if d := sb.NewIndexes([]string{"c"}, 1)[0]; d.EntryBytes != 120+SysbenchPKKey {
		t.Errorf("sysbench index on c: %d entry bytes", d.EntryBytes)
	}
}

// Fresh rebuilds the same shape in another space.
func TestFresh(t *testing.T) {
	for _, tab := range []*Table{
		NewSysbenchTable("sbtest1", "sbtest", 6, 2_500_000, 1, 16384),
		NewInsertBenchmarkTable("ib", "ib", 5, 3_000_000, 3, 16384),
		NewTable("w.customer", "w", 7, 300_000, 655, 7, []int{35}, 16384),
	} {
		f := tab.Fresh(42)
		f.Space = tab.Space
		for i, ix := range append([]*Index{f.Primary}, f.Secondary...) {
			ix.Space = tab.Space
			want := tab.Primary
			if i > 0 {
				want = tab.Secondary[i-1]
			}
			if !reflect.DeepEqual(ix, want) {
				t.Errorf("%s index %d: %+v, want %+v", tab.Name, i, ix, want)
			}
		}
		if f.NextPage != tab.NextPage || f.Kind != tab.Kind || f.Rows != tab.Rows {
			t.Errorf("%s: %+v vs %+v", tab.Name, f, tab)
		}
	}
}

// A data group's declared column sizes price an index on them; the kind's sizes stay for
// the columns not declared, and a rebuilt table keeps them.
func TestDeclaredColumnSizes(t *testing.T) {
	tab := NewSysbenchTable("t", "t", 1, 1000, 1, 16384)
	if got := tab.ColumnBytes([]string{"customer_id", "c"}); got != 4+120 {
		t.Fatalf("kind's sizes: %d", got)
	}
	tab.ColumnSizes = map[string]int{"customer_id": 8}
	if got := tab.ColumnBytes([]string{"Customer_ID", "c"}); got != 8+120 {
		t.Errorf("declared size: %d, want 128", got)
	}
	d := tab.NewIndexes([]string{"customer_id"}, 1)
	if d[0].EntryBytes != 8+tab.Primary.KeyBytes {
		t.Errorf("entry bytes %d", d[0].EntryBytes)
	}
	if tab.Fresh(2).ColumnBytes([]string{"customer_id"}) != 8 {
		t.Error("a rebuilt table forgot the declared sizes")
	}
}
