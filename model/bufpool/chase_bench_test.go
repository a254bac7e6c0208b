package bufpool

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// descriptor stands for InnoDB's buf_block_t control block (~400 bytes in 8.0 with the
// buf_page_t header, block mutex, rw-lock and AHI fields). A list walk reads the LRU `prev`
// link and the page id of each one.
type descriptor struct {
	prev  int32
	space uint32
	_     [392]byte
}

// BenchmarkDescriptorChase measures what one node of a buffer-pool list walk costs on the
// machine it runs on: a pointer chase through control blocks laid out contiguously (as in a
// buffer-pool chunk) but linked in random order (as the LRU links them after a while of
// traffic). The profile constant `costs.list_node` comes from this measurement: run it on (or
// like) the target machine with nodes = innodb_buffer_pool_size / page size / instances.
//
//	go test -run '^$' -bench DescriptorChase -count 5 ./model/bufpool/
func BenchmarkDescriptorChase(b *testing.B) {
	for _, n := range []int{1 << 16, 393_216, 1 << 21} { // 1 GiB, 48 GiB/8 and 256 GiB/8 pools
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) { chase(b, n) })
	}
	// The walk on a busy server: another core keeps touching random 16 KiB "pages" of a
	// 2 GiB array (the foreground threads' page accesses), evicting the descriptors and the
	// page-table entries the walk would otherwise find in cache.
	b.Run("nodes=393216/loaded", func(b *testing.B) {
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			mem := make([]byte, 2<<30)
			r := rand.New(rand.NewPCG(3, 4))
			for {
				select {
				case <-stop:
					return
				default:
				}
				for range 1024 {
					p := r.IntN(len(mem)>>14) << 14
					for o := 0; o < 16384; o += 512 {
						mem[p+o]++
					}
				}
			}
		}()
		defer func() { close(stop); <-done }()
		chase(b, 393_216)
	})
}

func chase(b *testing.B, n int) {
	{
		{
			a := make([]descriptor, n)
			perm := rand.New(rand.NewPCG(1, 2)).Perm(n)
			for i := range n {
				a[perm[i]].prev = int32(perm[(i+1)%n])
				a[perm[i]].space = uint32(i % 7)
			}
			cur, found := int32(perm[0]), 0
			b.ResetTimer()
			for range b.N {
				if a[cur].space == 3 {
					found++
				}
				cur = a[cur].prev
			}
			b.StopTimer()
			if found < 0 {
				b.Fatal(found)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/node")
			b.ReportMetric(float64(n)*400/(1<<20), "MiB")
		}
	}
}
