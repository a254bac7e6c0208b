package output

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// WriteFileAtomic writes data to path so that a reader (or a resumed sweep) sees either the
// old file or the complete new one, never a torn one: temp file in the same directory, fsync,
// rename, fsync of the directory. Every file of a results directory and the validation
// results and doc are written through it; a run directory is staged whole (Stage).
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	// CreateTemp makes 0600; results are for everyone who can read the directory.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// RemoveTemps removes the temporary files a killed writer left in dir (WriteFileAtomic's
// .tmp-* siblings).
func RemoveTemps(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !e.IsDir() && strings.HasPrefix(e.Name(), ".tmp-") {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// ProbeWritable creates a file in dir, renames it and removes it — what WriteFileAtomic does
// — so a directory that cannot take results is reported before the first run rather than
// after it.
func ProbeWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".tmp-probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	if err := os.Rename(name, name+"-renamed"); err != nil {
		os.Remove(name)
		return err
	}
	return os.Remove(name + "-renamed")
}

// PrepareDir creates dir (with its parents) and proves it takes files (ProbeWritable): the
// check every command makes of a directory it will write into before it starts its work.
func PrepareDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return ProbeWritable(dir)
}

func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	// Some filesystems refuse fsync on directories; the rename is still atomic there.
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
