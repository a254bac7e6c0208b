package mycnf

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
)

// The hardware inputs of ddlsim import: lscpu, free -b and lsblk output.

// Machine is what lscpu, free -b and lsblk say about the host.
type Machine struct {
	CPUs   int    // lscpu CPU(s): hardware threads
	Model  string // lscpu Model name
	L3     int64  // lscpu L3 cache, bytes (all instances)
	Memory int64  // free -b Mem: total, bytes
	Disk   Disk   // lsblk: the disk chosen for the data
	Disks  []Disk // every disk lsblk listed
	// CPUsWhere and MemoryWhere are the lines the two came from ("lscpu.txt:4").
	CPUsWhere, MemoryWhere string
}

// Disk is one lsblk disk.
type Disk struct {
	Name       string
	Rotational int // 1, 0, or -1 when lsblk was not asked for ROTA
	Size       string
	Tran       string // nvme, sata, sas, usb, ... ("" when not listed)
	Model      string
}

// maxCPUs is the most hardware threads a host is taken to have (ddlsim's cores limit).
var maxCPUs = int(config.LimitCores.Max)

// maxMemory is the most memory a host is taken to have: 64 TiB, beyond any single server
// sold today (a free -b total above it is not bytes, or not a host).
const maxMemory = int64(64) << 40

// ParseLscpu reads `lscpu` output (file names it in errors). CPU(s) is required and must be
// a count of hardware threads; every problem is reported.
func ParseLscpu(r io.Reader, file string, m *Machine) error {
	sc := scanner(r)
	var probs Problems
	for line, raw := range checkedLines(sc, file, &probs) {
		k, v, ok := strings.Cut(raw, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "CPU(s)":
			n, err := strconv.Atoi(v)
			switch {
			case err != nil:
				probs = append(probs, fmt.Sprintf("%s:%d: CPU(s): %q is not a number: expected the count of hardware threads lscpu prints (CPU(s): 16)", file, line, v))
			case n < 1 || n > maxCPUs:
				probs = append(probs, fmt.Sprintf("%s:%d: CPU(s): %d is not a count of hardware threads: expected 1 to %d", file, line, n, maxCPUs))
			default:
				m.CPUs, m.CPUsWhere = n, fmt.Sprintf("%s:%d", file, line)
			}
		case "Model name":
			m.Model = v
		case "L3 cache", "L3":
			b, err := cacheSize(v)
			if err != nil {
				probs = append(probs, fmt.Sprintf("%s:%d: L3 cache: %v: expected lscpu's size (32 MiB (1 instance), 36608K)", file, line, err))
				continue
			}
			m.L3 = b
		}
	}
	if err := sc.Err(); err != nil {
		probs = append(probs, fmt.Sprintf("%s: %v", file, err))
	}
	if m.CPUs == 0 && len(probs) == 0 {
		probs = append(probs, fmt.Sprintf("%s: no CPU(s) line: expected lscpu's output (lscpu > FILE)", file))
	}
	return probs.err()
}

// cacheSize reads lscpu's cache sizes: "32 MiB (1 instance)", "36608K", "64 MiB (2 instances)"
// (lscpu ≥ 2.34 prints the total of all instances first).
func cacheSize(v string) (int64, error) {
	f := strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(v))
	if len(f) == 0 {
		return 0, fmt.Errorf("empty")
	}
	num, unit := f[0], ""
	if len(f) > 1 && !strings.HasPrefix(f[1], "instance") && f[1] != "instances" {
		if _, err := strconv.Atoi(f[1]); err != nil {
			unit = f[1]
		}
	}
	if i := strings.IndexFunc(num, func(r rune) bool { return (r < '0' || r > '9') && r != '.' }); i >= 0 {
		num, unit = num[:i], num[i:]
	}
	x, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size", v)
	}
	mult := map[string]float64{"": 1, "B": 1, "K": 1 << 10, "KiB": 1 << 10, "KB": 1 << 10, "M": 1 << 20, "MiB": 1 << 20, "MB": 1 << 20,
		"G": 1 << 30, "GiB": 1 << 30, "GB": 1 << 30}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("%q: unknown unit %q", v, unit)
	}
	if b := x * mult; b < 1 || b > 1<<40 {
		return 0, fmt.Errorf("%q is not a cache size (1 B to 1 TiB)", v)
	}
	return int64(x * mult), nil
}

// ParseFree reads `free -b` output (the Mem: line's total, in bytes).
func ParseFree(r io.Reader, file string, m *Machine) error {
	sc := scanner(r)
	var probs Problems
	found := false
	for line, raw := range checkedLines(sc, file, &probs) {
		f := strings.Fields(raw)
		if found || len(f) < 2 || f[0] != "Mem:" {
			continue
		}
		found = true
		n, err := strconv.ParseInt(f[1], 10, 64)
		switch {
		case err != nil:
			probs = append(probs, fmt.Sprintf("%s:%d: Mem: total %q is not a byte count: expected free -b output", file, line, f[1]))
		case n < 1<<24:
			probs = append(probs, fmt.Sprintf("%s:%d: Mem: total %d is under 16 MiB: not bytes? expected free -b output", file, line, n))
		case n > maxMemory:
			probs = append(probs, fmt.Sprintf("%s:%d: Mem: total %d is over 64 TiB: not a host's memory in bytes (free -b)", file, line, n))
		default:
			m.Memory, m.MemoryWhere = n, fmt.Sprintf("%s:%d", file, line)
		}
	}
	if err := sc.Err(); err != nil {
		probs = append(probs, fmt.Sprintf("%s: %v", file, err))
	}
	if !found && len(probs) == 0 {
		probs = append(probs, fmt.Sprintf("%s: no Mem: line: expected free -b output", file))
	}
	return probs.err()
}

// ParseLsblk reads `lsblk` output, default columns or chosen ones (lsblk -d -o
// NAME,ROTA,TRAN,SIZE,MODEL is the most telling); only TYPE disk rows count when TYPE is
// listed. The data disk is the largest.
func ParseLsblk(r io.Reader, file string, m *Machine) error {
	sc := scanner(r)
	var cols []string
	var probs Problems
	for line, raw := range checkedLines(sc, file, &probs) {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		f := strings.Fields(raw)
		if cols == nil {
			cols = f
			if cols[0] != "NAME" {
				return Problems{fmt.Sprintf("%s:%d: expected a header line beginning NAME (lsblk -d -o NAME,ROTA,TRAN,SIZE,MODEL), got %q", file, line, raw)}
			}
			continue
		}
		if strings.IndexFunc(raw, func(r rune) bool { return r != ' ' }) > 0 || strings.ContainsAny(f[0], "├└│─`|") {
			continue // a partition or holder, drawn as a child of its disk
		}
		d := Disk{Name: f[0], Rotational: -1}
		isDisk := true
		for i, c := range cols {
			if i >= len(f) {
				break
			}
			switch c {
			case "ROTA":
				switch f[i] {
				case "0", "1":
					d.Rotational = int(f[i][0] - '0')
				default:
					probs = append(probs, fmt.Sprintf("%s:%d: ROTA %q: expected 0 or 1", file, line, f[i]))
				}
			case "SIZE":
				d.Size = f[i]
			case "TRAN":
				d.Tran = f[i]
			case "TYPE":
				isDisk = f[i] == "disk"
			case "MODEL":
				d.Model = strings.Join(f[i:], " ")
			}
		}
		if isDisk && !strings.HasPrefix(d.Name, "loop") && !strings.HasPrefix(d.Name, "sr") && !strings.HasPrefix(d.Name, "zram") {
			m.Disks = append(m.Disks, d)
		}
	}
	if err := sc.Err(); err != nil {
		probs = append(probs, fmt.Sprintf("%s: %v", file, err))
	}
	if len(m.Disks) == 0 && len(probs) == 0 {
		probs = append(probs, fmt.Sprintf("%s: no disk listed: expected lsblk output (lsblk -d -o NAME,ROTA,TRAN,SIZE,MODEL)", file))
	}
	if len(probs) > 0 {
		return probs
	}
	// The data disk: the largest (a root disk is usually the small one), the first of equals.
	m.Disk = m.Disks[0]
	for _, d := range m.Disks[1:] {
		if sizeOf(d.Size) > sizeOf(m.Disk.Size) {
			m.Disk = d
		}
	}
	return nil
}

// sizeOf reads lsblk's human sizes ("1.5T", "50G", "931.5G"; binary units) or a byte count
// (lsblk -b); 0 when unreadable.
func sizeOf(s string) float64 {
	mult := 1.0
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		case 'P':
			mult = 1 << 50
		}
		if mult > 1 {
			s = s[:n-1]
		}
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return x * mult
}

// Preset is the shipped device preset closest to the disk, and why.
func (d Disk) Preset() string {
	switch {
	case strings.HasPrefix(d.Name, "nvme") || d.Tran == "nvme":
		return "nvme"
	case d.Rotational == 1:
		return "hdd"
	case strings.HasPrefix(d.Name, "vd") || strings.HasPrefix(d.Name, "xvd"):
		return "cloud-block" // a virtio or Xen block device: a cloud volume
	}
	return "sata-ssd"
}
