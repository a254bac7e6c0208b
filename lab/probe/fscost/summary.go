package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
)

// key identifies one timed call kind at one size.
type key struct {
	test string
	size int64
	call string
}

type cell struct {
	wall, cpu []float64
	extents   []float64
}

// summarize reads fscost's raw rows and prints, per (test, size, call), the medians of wall
// and CPU time (µs) and of the extent count, then per (test, call) whose size varies, the
// least-squares line through the per-size medians: fixed µs + µs per MiB (wall and CPU).
func summarize(path string, w io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	cells := map[key]*cell{}
	var order []key
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		if strings.HasPrefix(sc.Text(), "#") {
			fmt.Fprintln(w, sc.Text()) // the raw file's provenance comments carry over
			continue
		}
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 7 || fs[0] == "test" {
			continue
		}
		size, e1 := strconv.ParseInt(fs[1], 10, 64)
		wall, e2 := strconv.ParseFloat(fs[4], 64)
		cpu, e3 := strconv.ParseFloat(fs[5], 64)
		ext, e4 := strconv.ParseFloat(fs[6], 64)
		if e1 != nil || e2 != nil || e3 != nil || e4 != nil {
			return fmt.Errorf("%s:%d: expected test, size_mib, rep, call, wall_us, cpu_us, extents", path, line)
		}
		k := key{fs[0], size, fs[3]}
		c := cells[k]
		if c == nil {
			c = &cell{}
			cells[k] = c
			order = append(order, k)
		}
		c.wall = append(c.wall, wall)
		c.cpu = append(c.cpu, cpu)
		c.extents = append(c.extents, ext)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	fmt.Fprintln(w, "# medians\ntest\tsize_mib\tcall\tn\twall_us_median\tcpu_us_median\twall_us_min\twall_us_max\textents_median")
	for _, k := range order {
		c := cells[k]
		fmt.Fprintf(w, "%s\t%d\t%s\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\n", k.test, k.size, k.call, len(c.wall),
			median(c.wall), median(c.cpu), minOf(c.wall), maxOf(c.wall), median(c.extents))
	}
	fits(w, cells, order)
	return nil
}

// fits prints the fixed + per-MiB line of each (test, call) measured at two or more sizes.
func fits(w io.Writer, cells map[key]*cell, order []key) {
	type tc struct{ test, call string }
	var groups []tc
	seen := map[tc][]key{}
	for _, k := range order {
		g := tc{k.test, k.call}
		if _, ok := seen[g]; !ok {
			groups = append(groups, g)
		}
		seen[g] = append(seen[g], k)
	}
	fmt.Fprintln(w, "# fit over the per-size medians: value = fixed + per_mib * size_mib\ntest\tcall\tsizes\twall_fixed_us\twall_us_per_mib\tcpu_fixed_us\tcpu_us_per_mib")
	for _, g := range groups {
		ks := seen[g]
		if len(ks) < 2 {
			continue
		}
		sort.Slice(ks, func(i, j int) bool { return ks[i].size < ks[j].size })
		var xs, wall, cpu []float64
		for _, k := range ks {
			xs = append(xs, float64(k.size))
			wall = append(wall, median(cells[k].wall))
			cpu = append(cpu, median(cells[k].cpu))
		}
		wa, wb := stat.LinearRegression(xs, wall, nil, false)
		ca, cb := stat.LinearRegression(xs, cpu, nil, false)
		fmt.Fprintf(w, "%s\t%s\t%d-%d\t%.1f\t%.3f\t%.1f\t%.3f\n", g.test, g.call, ks[0].size, ks[len(ks)-1].size, wa, wb, ca, cb)
	}
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func minOf(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = min(m, x)
	}
	return m
}

func maxOf(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
