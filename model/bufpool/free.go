package bufpool

// ReturnFree puts a frame taken with TakeFree back on the free list unused (a reader that
// lost the race to read the same page in, as buf_page_init_for_read's caller does with
// buf_LRU_block_free_non_file_page).
func (in *Instance) ReturnFree(f FrameID) {
	if in.hot[f].flags&flInLRU != 0 {
		panic("bufpool: ReturnFree of a frame in the LRU")
	}
	in.lruPrev[f] = Nil
	in.lruNext[f] = in.freeHead
	in.freeHead = f
	in.freeLen++
	if in.taken > 0 {
		in.taken--
	}
}
