// Command fiosum summarizes fio JSON outputs (lab/probe/disk.sh) as one TSV:
// test, direction (read|write|sync), metric, value, unit. Metrics: iops, bw_bytes_s, lat_mean_us,
// lat_max_us and lat_p<q>_us for every quantile fio reported (total latency: submission +
// completion, --lat_percentiles=1; for "sync" the fsync/fdatasync call alone).
//
// Usage: fiosum FILE.json... > disk.tsv
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

type latency struct {
	Mean       float64            `json:"mean"`
	Max        float64            `json:"max"`
	N          float64            `json:"N"`
	Percentile map[string]float64 `json:"percentile"`
}

type dir struct {
	IOPS     float64 `json:"iops"`
	BW       float64 `json:"bw_bytes"`
	TotalIOs float64 `json:"total_ios"`
	LatNs    latency `json:"lat_ns"`
}

type job struct {
	Read  dir `json:"read"`
	Write dir `json:"write"`
	Sync  struct {
		TotalIOs float64 `json:"total_ios"`
		LatNs    latency `json:"lat_ns"`
	} `json:"sync"`
}

func main() {
	fmt.Println("test\tdirection\tmetric\tvalue\tunit")
	for _, path := range os.Args[1:] {
		b, err := os.ReadFile(path)
		if err != nil {
			fail(err)
		}
		// fio may print notes before the JSON object
		if i := strings.IndexByte(string(b), '{'); i > 0 {
			b = b[i:]
		}
		var out struct {
			Jobs []job `json:"jobs"`
		}
		if err := json.Unmarshal(b, &out); err != nil {
			fail(fmt.Errorf("%s: %w", path, err))
		}
		if len(out.Jobs) == 0 {
			fail(fmt.Errorf("%s: no jobs", path))
		}
		test := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "fio-"), ".json")
		j := out.Jobs[0]
		for _, d := range []struct {
			name string
			d    dir
		}{{"read", j.Read}, {"write", j.Write}} {
			if d.d.TotalIOs == 0 {
				continue
			}
			row(test, d.name, "iops", d.d.IOPS, "1/s")
			row(test, d.name, "bw_bytes_s", d.d.BW, "B/s")
			lat(test, d.name, d.d.LatNs)
		}
		if j.Sync.LatNs.N > 0 {
			row(test, "sync", "count", j.Sync.LatNs.N, "ops")
			lat(test, "sync", j.Sync.LatNs)
		}
	}
}

func lat(test, d string, l latency) {
	row(test, d, "lat_mean_us", l.Mean/1e3, "us")
	row(test, d, "lat_max_us", l.Max/1e3, "us")
	keys := make([]string, 0, len(l.Percentile))
	for k := range l.Percentile {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		x, _ := strconv.ParseFloat(keys[a], 64)
		y, _ := strconv.ParseFloat(keys[b], 64)
		return x < y
	})
	for _, k := range keys {
		q, _ := strconv.ParseFloat(k, 64)
		row(test, d, "lat_p"+strconv.FormatFloat(q, 'f', -1, 64)+"_us", l.Percentile[k]/1e3, "us")
	}
}

func row(test, d, m string, v float64, unit string) {
	fmt.Printf("%s\t%s\t%s\t%s\t%s\n", test, d, m, strconv.FormatFloat(v, 'f', 3, 64), unit)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "fiosum:", err)
	os.Exit(1)
}
