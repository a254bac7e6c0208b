package server

// Internals the external tests need.

// GroupPages is the shape function the tablespace limit uses.
var GroupPages = groupPages

// MutexAcquireCPU is the CPU a Lock charges.
var MutexAcquireCPU = mutexAcquireCPU
