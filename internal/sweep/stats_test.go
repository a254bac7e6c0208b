package sweep

import (
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// A phase that occurs twice in one statement is one metric, its total, not two values of the
// same metric (which compare would average as if they were two runs).
func TestKeyMetricsSumsRepeatedPhases(t *testing.T) {
	r := &Row{DDL: []metrics.DDLResult{{Op: "create_index", DurationS: 10, Phases: []metrics.Phase{
		{Name: "observer_flush", StartS: 0, EndS: 3}, {Name: "row_log_apply", StartS: 3, EndS: 4},
		{Name: "observer_flush", StartS: 4, EndS: 4.5}}}}}
	var names []string
	var flush float64
	for _, m := range KeyMetrics(r) {
		names = append(names, m.Name)
		if m.Name == "ddl0_create_index_observer_flush_s" {
			flush += m.Value
		}
	}
	want := []string{"ddl0_create_index_duration_s", "ddl0_create_index_observer_flush_s", "ddl0_create_index_row_log_apply_s"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("metrics %v, want %v", names, want)
	}
	if flush != 3.5 {
		t.Errorf("observer_flush total %v, want 3.5", flush)
	}
}
