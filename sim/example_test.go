package sim_test

import (
	"fmt"

	"github.com/ddlsim/ddlsim/sim"
)

// Two threads share one core and a mutex; one of them reads from a device while holding it.
func Example() {
	s := sim.New(42)
	defer s.Close()
	cpu := sim.NewCores(s, 1, sim.Millisecond)
	lru := sim.NewMutex(s, "lru", sim.MutexOptions{Cores: cpu, Spin: 20 * sim.Microsecond, Handoff: 5 * sim.Microsecond})
	disk := sim.NewDevice(s, "disk", sim.DeviceConfig{Channels: 1, Read: sim.Constant(100 * sim.Microsecond)})

	s.Spawn("ddl", "ddl", func(p *sim.Proc) {
		lru.Lock(p)
		cpu.Compute(p, 300*sim.Microsecond) // scan a list under the mutex
		disk.Do(p, sim.Read, 16<<10)
		lru.Unlock(p)
		fmt.Println(p.Now(), p.Name(), "done")
	})
	s.Spawn("query", "fg", func(p *sim.Proc) {
		p.Sleep(50 * sim.Microsecond)
		lru.Lock(p) // spins 20µs on the core, then sleeps until the hand-off
		fmt.Println(p.Now(), p.Name(), "got the mutex")
		lru.Unlock(p)
	})
	s.Run(sim.Second)

	st := lru.Stats()
	fmt.Println("contended", st.Contended, "of", st.Acquisitions, "fg wait", st.WaitByKind["fg"].Max())
	fmt.Println("now", s.Now())
	// Output:
	// 400µs ddl done
	// 405µs query got the mutex
	// contended 1 of 2 fg wait 355µs
	// now 1.000s
}
