package server

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// Costs are the profile's cost constants in virtual time.
type Costs struct {
	PageHit, PageMiss, ListNode, Row, Statement, Commit sim.Time
	MutexHandoff, MutexSpin, ContextSwitch              sim.Time
	AHIFold, AHINode, BlockScan                         sim.Time
	PageFree, PageFlushCPU, SortRow, MergeRow, LoadRow  sim.Time
	Connect, TempTableRow                               sim.Time
	// FilesortRow is one compare level of an in-memory sort outside the index build (a
	// statement's filesort, the flush toolkit's sort of its targets): costs.filesort_row,
	// or costs.sort_row when a profile leaves it 0.
	FilesortRow sim.Time
	// PageReadCPU, PageWriteCPU: server CPU per data-file page read / write operation
	// submitted (syscall, block layer, completion); the sleep around a wait is ContextSwitch.
	PageReadCPU, PageWriteCPU sim.Time
	// Path is the access-path costs (cost.go); each 0 is not charged.
	Path PathCosts
}

func costsFrom(c config.Costs) Costs {
	d := func(x config.Duration) sim.Time { return sim.Time(x) }
	if c.FilesortRow == 0 {
		c.FilesortRow = c.SortRow
	}
	return Costs{
		PageHit: d(c.PageHit), PageMiss: d(c.PageMiss), ListNode: d(c.ListNode), Row: d(c.Row),
		Statement: d(c.Statement), Commit: d(c.Commit), MutexHandoff: d(c.MutexHandoff),
		MutexSpin: d(c.MutexSpin), ContextSwitch: d(c.ContextSwitch),
		AHIFold: d(c.AHIFold), AHINode: d(c.AHINode), BlockScan: d(c.BlockScan),
		PageFree: d(c.PageFree), PageFlushCPU: d(c.PageFlushCPU), SortRow: d(c.SortRow),
		MergeRow: d(c.MergeRow), LoadRow: d(c.LoadRow), Connect: d(c.Connect),
		TempTableRow: d(c.TempTableRow), PageReadCPU: d(c.PageReadCPU), PageWriteCPU: d(c.PageWriteCPU),
		FilesortRow: d(c.FilesortRow), Path: pathCostsFrom(c),
	}
}

// Server is the simulated mysqld.
type Server struct {
	Sim      *sim.Sim
	Scenario *config.Scenario
	Cores    *sim.Cores
	Data     *sim.Device
	Log      *sim.Device
	Temp     *sim.Device
	Inst     []*Instance
	Costs    Costs
	PageSize int64
	// Paths counts the access-path model's operations (cost.go).
	Paths PathStats
	// FS is the profile's file-system call costs (hardware.fs; zero: not measured).
	FS config.FS
	// Ver is the server version and Traits what its InnoDB does differently
	// (model/version).
	Ver    version.V
	Traits version.Traits
	AHI    bool
	Dblwr  bool

	// policy is the maintenance policy, attached by New only (Server.DropPages, FlushPages,
	// Stale reach it).
	policy Policy
	// mutexes made by NewMutex (buffer-pool lists, the temp-tablespace pool), for reports
	mutexes []*sim.Mutex
	// ahiParts are the adaptive hash index's partitions (ahi.go).
	ahiParts []*ahiPart
	// mdl holds each table's metadata lock (mdl.go).
	mdl map[*schema.Table]*mdlLock
	// autoinc holds each table's AUTO-INC table lock (autoinc.go).
	autoinc map[*schema.Table]*autoIncLock
	// lazy: the policy frees stale pages where it meets them (its Traits).
	lazy   bool
	Spaces Spaces
	// Undo is the undo tablespace the transactions' undo pages live in.
	Undo *Space
	// spaceWrites counts page modifications per tablespace (a DDL's row log is fed by the
	// DML on its table meanwhile).
	spaceWrites []uint64
	Tables      []*schema.Table
	// Groups maps a data group name to its tables.
	Groups map[string][]*schema.Table

	Redo *Redo
	// TempTruncations logs every session temp-tablespace truncation (ddl.TempTruncate).
	TempTruncations []TempTruncation
	// Lat holds transaction latencies (ms) of the current report interval.
	Lat      []float64
	Stats    Stats
	cleaners *cleaners
	// mcleaner is MariaDB's page cleaner (Traits.IdleCleaner; nil otherwise).
	mcleaner *mariaCleaner
	// purge is purge_sys (purge.go; nil until StartBackground).
	purge *purgeSys

	nextObserver uint16
	framesPer    int

	// Single-page doublewrite slots in use and threads waiting for one; DDL async writes in
	// flight and threads waiting for them all to finish.
	dblwrSingle  int
	dblwrWaiters []*Thread
	asyncWrites  int
	// dblwr is MariaDB's two-slot doublewrite pipeline (dblwr.go).
	dblwr dblwrPipe
	// pendingIO counts page writes in flight per tablespace (fil_node_t::n_pending):
	// Fil_shard::space_rename waits for it to reach 0.
	pendingIO    map[uint32]int
	asyncWaiters []*Thread

	// binlog is the binary log when mysql.log_bin is on (binlog.go; nil until first used);
	// triggers are the tables' trigger bodies (binlog.go's RowChanged fires them).
	binlog   *binlog
	triggers map[*schema.Table]Trigger
}

// Stats are the server's cumulative counters; the metrics recorder samples deltas.
type Stats struct {
	Hits, Misses      uint64
	PagesRead         uint64
	PagesWritten      uint64
	SinglePageFlushes uint64
	MakeYoung         uint64
	FreeWaits         uint64
	Txns, Commits     uint64
	Reads, Writes     uint64 // queries
	Others            uint64
	IUD               uint64
	StalePagesFreed   uint64
	// StaleEvicted counts stale pages the LRU eviction scan chose first (FreesStale policies).
	StaleEvicted    uint64
	Connects        uint64
	TempTruncations uint64
	// TempClosing is a gauge: sessions whose server thread is still cleaning up after the
	// client disconnected (the trace's growing thread count under the feature-off run).
	TempClosing       int64
	CleanerFlushed    uint64
	CleanerLRUEvicted uint64
	// AHIBuilt and AHIPagesDropped count pages whose adaptive-hash entries were built or
	// dropped.
	AHIBuilt, AHIPagesDropped uint64
	// AHIReadWaitNs is the time searches waited for an AHI partition held in X.
	AHIReadWaitNs uint64
	// MDLWaits counts metadata-lock requests that had to wait, MDLWaitNs their total wait,
	// MDLTimeouts those that gave up at lock_wait_timeout.
	MDLWaits, MDLWaitNs, MDLTimeouts, MDLDeadlocks uint64
	// ReadAhead counts pages read by linear read-ahead (Innodb_buffer_pool_read_ahead),
	// ReadAheadBatches the extents it was triggered for (readahead.go).
	ReadAhead, ReadAheadBatches uint64
	// AutoInc counts the AUTO-INC table lock's grants and waits (autoinc.go).
	AutoInc AutoIncStats
	// MDLWaiting is a gauge: threads waiting for a metadata lock now.
	MDLWaiting int64
	// ThreadsRunning is a gauge: connections executing a command now (running.go).
	ThreadsRunning int64
	// IOSleeps counts a thread's sleeps on I/O (each charged costs.context_switch).
	IOSleeps uint64
	// ClientCPUNs is the CPU a co-located benchmark client used on the server's cores
	// (hardware.client); OtherCPUNs that of the other processes of an other_cpu workload.
	ClientCPUNs, OtherCPUNs uint64
	// Errors counts statements that failed (ER_NO_SUCH_TABLE, ER_LOCK_WAIT_TIMEOUT): sysbench's
	// err/s.
	Errors uint64
	// Purge is purge's work (purge.go).
	Purge PurgeStats
}

// TempTruncation is one session temp-tablespace truncation and the work it did.
type TempTruncation struct {
	Start, End sim.Time
	Stats      ScanStats
}

// New builds the server of sc — instances, devices, tablespaces and tables — with the policy
// newPolicy makes. The pool is empty until Warm and no thread runs until StartBackground.
// Use runner.Build, which assembles a whole run (policy from the registry, warm pool,
// workloads, schedule): it is the one place a server is made.
func New(s *sim.Sim, sc *config.Scenario, newPolicy PolicyFactory) (*Server, error) {
	hw := &sc.HardwareProfile
	srv := &Server{Sim: s, Scenario: sc, Costs: costsFrom(hw.Costs), PageSize: int64(sc.MySQL.PageSize), FS: hw.FS}
	var err error
	if srv.Ver, err = version.Parse(sc.MySQL.Version); err != nil {
		return nil, fmt.Errorf("mysql.version: %w", err)
	}
	srv.Traits = version.TraitsOf(srv.Ver)
	srv.AHI = sc.MySQL.AdaptiveHashIndex == nil || *sc.MySQL.AdaptiveHashIndex
	srv.Dblwr = sc.MySQL.Doublewrite == nil || *sc.MySQL.Doublewrite
	srv.Cores = sim.NewCores(s, hw.Cores, sim.Time(hw.Quantum))
	if srv.Data, err = newDevice(s, "data", hw.Storage.Data); err != nil {
		return nil, err
	}
	// The log and temp devices are optional: without them, redo and sort files share the
	// data device (one disk).
	srv.Log, srv.Temp = srv.Data, srv.Data
	if hw.Storage.Log.Read.Dist != "" {
		if srv.Log, err = newDevice(s, "log", hw.Storage.Log); err != nil {
			return nil, err
		}
	}
	if hw.Storage.Temp.Read.Dist != "" {
		if srv.Temp, err = newDevice(s, "temp", hw.Storage.Temp); err != nil {
			return nil, err
		}
	}
	n := sc.MySQL.BufferPoolInstances
	frames := int(int64(sc.MySQL.BufferPoolSize) / srv.PageSize / int64(n))
	srv.framesPer = frames
	for i := 0; i < n; i++ {
		srv.Inst = append(srv.Inst, newInstance(srv, i, frames))
	}
	srv.newAHI()
	srv.Redo = newRedo(srv)
	srv.Spaces.New("innodb_system")
	srv.Undo = srv.Spaces.New("innodb_undo_001")
	srv.buildTables()
	if newPolicy == nil {
		return nil, fmt.Errorf("server: no policy")
	}
	p, err := newPolicy(srv)
	if err != nil {
		return nil, err
	}
	srv.policy = p
	srv.lazy = p.FreesStale()
	return srv, nil
}

func newDevice(s *sim.Sim, name string, d config.Device) (*sim.Device, error) {
	cfg := sim.DeviceConfig{Channels: d.Channels, BandwidthBytes: float64(d.Bandwidth)}
	var err error
	if cfg.Read, err = Dist(d.Read); err != nil {
		return nil, fmt.Errorf("storage.%s.read: %w", name, err)
	}
	if cfg.Write, err = Dist(d.Write); err != nil {
		return nil, fmt.Errorf("storage.%s.write: %w", name, err)
	}
	if d.Sync.Dist == "" {
		cfg.Sync = cfg.Write
	} else if cfg.Sync, err = Dist(d.Sync); err != nil {
		return nil, fmt.Errorf("storage.%s.sync: %w", name, err)
	}
	return sim.NewDevice(s, name, cfg), nil
}

// Dist converts a configured latency distribution.
func Dist(d config.Distribution) (sim.Dist, error) {
	switch d.Dist {
	case "constant":
		return sim.Constant(sim.Time(d.Value)), nil
	case "exponential":
		return sim.Exponential(sim.Time(d.Mean)), nil
	case "lognormal":
		return sim.LogNormal(sim.Time(d.P50), sim.Time(d.P99)), nil
	case "empirical":
		q := make([]float64, len(d.Table))
		v := make([]sim.Time, len(d.Table))
		for i, p := range d.Table {
			q[i], v[i] = p.Q, sim.Time(p.Value)
		}
		return sim.Empirical(q, v)
	}
	return nil, fmt.Errorf("unknown distribution %q", d.Dist)
}

// InstanceOf returns the instance that caches page pid: buf_pool_get() folds the space id and
// page_no >> 6, so 64-page extents land in one instance.
func (s *Server) InstanceOf(pid schema.PageID) *Instance {
	space, page := uint64(pid.Space()), uint64(pid.Page()>>6)
	fold := (space << 20) + space + page
	return s.Inst[fold%uint64(len(s.Inst))]
}

// NewObserver returns a fresh flush-observer id for a bulk load (FlushObserver).
func (s *Server) NewObserver() uint16 {
	s.nextObserver++
	if s.nextObserver == 0 {
		s.nextObserver = 1
	}
	return s.nextObserver
}

// Frames is the total number of frames in the pool.
func (s *Server) Frames() int { return s.framesPer * len(s.Inst) }

// Sum helpers over instances, for metrics.
func (s *Server) FreePages() (n int) {
	for _, in := range s.Inst {
		n += in.BP.FreeLen()
	}
	return
}

func (s *Server) DirtyPages() (n int) {
	for _, in := range s.Inst {
		n += in.BP.FlushLen()
	}
	return
}

func (s *Server) LRUPages() (n int) {
	for _, in := range s.Inst {
		n += in.BP.LRULen()
	}
	return
}

func nowMs(t sim.Time) uint32 { return uint32(t / sim.Millisecond) }

// RecordTxn records one finished transaction's latency.
func (s *Server) RecordTxn(lat sim.Time) {
	s.Stats.Txns++
	s.Lat = append(s.Lat, float64(lat)/1e6)
}

// SpaceWrites is the number of page modifications made to space id so far.
func (s *Server) SpaceWrites(id uint32) uint64 {
	if int(id) < len(s.spaceWrites) {
		return s.spaceWrites[id]
	}
	return 0
}

// StalePages counts the resident pages of dropped tablespaces that the policy reports stale
// (MariaDB and 8.0.23+ leave them to be freed where they are met), and how many of them are
// dirty. Only deleted spaces are walked (their per-space page lists).
func (s *Server) StalePages() (n, dirty int) {
	for _, sp := range s.Spaces.All() {
		if !sp.Deleted {
			continue
		}
		for _, in := range s.Inst {
			for f := range in.BP.SpaceFrames(sp.ID) {
				if s.Stale(in, f) {
					n++
					if in.BP.IsDirty(f) {
						dirty++
					}
				}
			}
		}
	}
	return n, dirty
}
