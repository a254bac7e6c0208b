package server

import "github.com/ddlsim/ddlsim/model/schema"

// Space is a tablespace. Version and Deleted implement 8.0.23's lazy drop (fil0fil.cc,
// WL#14100): a page remembers the version it was read under; a page of a deleted space or of
// an older version is stale and may be freed whenever it is met.
type Space struct {
	ID      uint32
	Name    string
	Version uint32
	Deleted bool
	Temp    bool // session temporary tablespace (#innodb_temp/temp_N.ibt)
	Table   *schema.Table
	// NextPage is the next page number a page allocation hands out.
	NextPage uint32
	// Loaded is the number of pages that were on disk when the data set was built (the
	// loaded table's file): written, whatever the pool holds of them.
	Loaded uint32
}

// Spaces is the tablespace registry (fil_system), indexed by id.
type Spaces struct {
	byID []*Space
}

// New registers a new tablespace with the next free id.
func (r *Spaces) New(name string) *Space {
	s := &Space{ID: uint32(len(r.byID)), Name: name, NextPage: 3}
	r.byID = append(r.byID, s)
	return s
}

// Get returns space id, or nil.
func (r *Spaces) Get(id uint32) *Space {
	if int(id) < len(r.byID) {
		return r.byID[id]
	}
	return nil
}

// All returns every registered space in id order.
func (r *Spaces) All() []*Space { return r.byID }
