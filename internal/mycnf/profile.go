package mycnf

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ddlsim/ddlsim/model/config"
)

// The hardware profile ddlsim import writes: the shipped base that fits and what the
// machine's own outputs measured.

// profile writes the hardware profile: the nearest shipped profile as its base, the
// machine's cores, memory, LLC and the device preset of its data disk on top.
func profile(in Inputs, res *Result, pool config.Size) (string, string) {
	m := in.Machine
	if m == nil {
		m = &Machine{}
	}
	base := nearestProfile(m.CPUs, m.Memory, pool)
	var memory config.Size // set when no shipped profile holds the pool and free -b was not given
	if m.Memory == 0 {
		if near := nearestProfile(m.CPUs, 1, 0); near != base && m.CPUs > 0 || m.CPUs == 0 && base != "8c-64g" {
			res.Notes = append(res.Notes, fmt.Sprintf("base: %s, the nearest shipped profile whose memory holds the %s pool (no free -b output)", base, pool))
		}
		if hw, err := shippedProfile(base); err == nil && hw.Memory < pool {
			memory = (pool + pool/4 + config.GiB - 1) / config.GiB * config.GiB
			res.Warnings = append(res.Warnings, fmt.Sprintf("memory: no shipped profile has room for the %s pool and no free -b output was given: the profile sets memory %s (the pool + 25%%, a guess); give --free for the machine's", pool, memory))
		}
	}
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# Hardware profile of %s, imported by `ddlsim import`. It builds on the shipped profile %s\n", in.Name, base)
	w("# (ddlsim list; scenarios/profiles/%s.yaml says where each of its values comes from) and\n", base)
	w("# replaces what the inputs tell about this machine. Its CPU costs are %s's: measure or\n", base)
	w("# fit them for this machine (docs/validation.md) before trusting absolute numbers.\n")
	w("name: %s\nbase: %s\n", in.Name, base)
	if m.CPUs > 0 {
		w("cores: %d   # lscpu CPU(s)", m.CPUs)
		if m.Model != "" {
			w(": %s", m.Model)
		}
		w("\n")
	} else {
		res.Notes = append(res.Notes, "cores: no lscpu output (--lscpu): "+base+"'s are used")
	}
	if m.Memory > 0 {
		w("memory: %s   # free -b: Mem: total %d bytes\n", config.Size(m.Memory/int64(config.MiB)*int64(config.MiB)), m.Memory)
	} else if memory > 0 {
		w("memory: %s   # no free -b output: the pool + 25%%, a guess; no shipped profile holds a %s pool\n", memory, pool)
	} else {
		res.Notes = append(res.Notes, "memory: no free -b output (--free): "+base+"'s is used")
	}
	if m.L3 > 0 {
		w("llc: %s   # lscpu L3 cache\n", config.Size(m.L3))
	}
	if m.Disk.Name != "" {
		p := m.Disk.Preset()
		w("storage:   # lsblk: %s%s -> the %s preset (ddlsim list shows the presets and their sources)\n", m.Disk.Name, diskInfo(m.Disk), p)
		w("  data: %s\n  log: %s\n  temp: %s\n", p, p, p)
		if m.Disk.Rotational < 0 && m.Disk.Tran == "" && p == "sata-ssd" {
			res.Notes = append(res.Notes, "storage: lsblk without ROTA/TRAN columns: "+m.Disk.Name+" taken for an SSD; lsblk -d -o NAME,ROTA,TRAN,SIZE,MODEL tells")
		}
		if len(m.Disks) > 1 {
			res.Notes = append(res.Notes, fmt.Sprintf("storage: lsblk lists %d disks; %s is taken for data, log and temp: edit the profile if the datadir is elsewhere", len(m.Disks), m.Disk.Name))
		}
	} else {
		res.Notes = append(res.Notes, "storage: no lsblk output (--lsblk): "+base+"'s devices are used")
	}
	// What the inputs measured, machine-readably (trust reports it; the rest is base's,
	// carried over).
	var prov []string
	if m.CPUs > 0 {
		prov = append(prov, fmt.Sprintf("  - {name: cores, status: measured, source: %s}\n", strconv.Quote("lscpu CPU(s), "+m.CPUsWhere)))
	}
	if m.Memory > 0 {
		prov = append(prov, fmt.Sprintf("  - {name: memory, status: measured, source: %s}\n", strconv.Quote("free -b Mem: total, "+m.MemoryWhere)))
	}
	if m.L3 > 0 {
		prov = append(prov, "  - {name: llc, status: measured, source: \"lscpu L3 cache\"}\n")
	}
	if len(prov) > 0 {
		w("# Where the values above come from (ddlsim run prints it on its trust: line); every\n")
		w("# value not written here is %s's, carried over.\nprovenance:\n%s", base, strings.Join(prov, ""))
	}
	return b.String(), base
}

func diskInfo(d Disk) string {
	var parts []string
	if d.Tran != "" {
		parts = append(parts, d.Tran)
	}
	if d.Rotational >= 0 {
		parts = append(parts, fmt.Sprintf("rota %d", d.Rotational))
	}
	if d.Size != "" {
		parts = append(parts, d.Size)
	}
	if d.Model != "" {
		parts = append(parts, d.Model)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// nearestProfile picks the shipped profile closest in cores and memory (on a log scale: 8 vs
// 16 cores is as far as 16 vs 32), the lab machine excepted (its costs are a 2-vCPU VM's);
// 8c-64g when neither is known. When the memory is not known, only a profile whose memory
// holds the pool is a candidate (the largest when none does).
func nearestProfile(cores int, mem int64, pool config.Size) string {
	if cores == 0 && mem == 0 {
		if hw, err := shippedProfile("8c-64g"); err == nil && hw.Memory >= pool {
			return "8c-64g" // nothing known about the machine: the profile most shipped scenarios use
		}
	}
	type cand struct {
		name string
		d    float64
	}
	var cs []cand
	for _, name := range config.ShippedProfiles() {
		if strings.HasPrefix(name, "lab") {
			continue
		}
		hw, err := shippedProfile(name)
		if err != nil {
			continue
		}
		d := 0.0
		if mem == 0 && hw.Memory < pool {
			d += 1000 + math.Log2(float64(pool)/float64(hw.Memory)) // does not hold the pool: last, the largest first
		}
		if cores > 0 {
			d += math.Abs(math.Log2(float64(cores) / float64(hw.Cores)))
		}
		if mem > 0 {
			d += math.Abs(math.Log2(float64(mem) / float64(hw.Memory)))
		}
		cs = append(cs, cand{name, d})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	if len(cs) == 0 {
		return "8c-64g"
	}
	return cs[0].name
}

// shippedProfiles are the shipped profiles, loaded once (they are compiled in and never
// change while the process runs).
var shippedProfiles = sync.OnceValue(func() map[string]*config.Hardware {
	m := map[string]*config.Hardware{}
	for _, name := range config.ShippedProfiles() {
		if hw, err := config.LoadHardware(name); err == nil {
			m[name] = hw
		}
	}
	return m
})

func shippedProfile(name string) (*config.Hardware, error) {
	if hw, ok := shippedProfiles()[name]; ok {
		return hw, nil
	}
	return nil, fmt.Errorf("no shipped profile %s", name)
}
