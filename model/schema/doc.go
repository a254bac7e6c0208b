// Package schema gives tables their on-disk shape: tablespaces, B-tree indexes with a realistic
// fan-out and depth, and the mapping from a key to the pages a lookup touches (root → leaf).
//
// It models no time and holds no per-row or per-page state: an index is a few integers and a
// lookup path is arithmetic, so an 8-billion-row table costs the same memory as a small one.
//
// Shape rules (reference/workloads.md, InnoDB page format): a 16 KiB page holds ~15/16 × 16 KiB
// of records after a bulk load (innodb_fill_factor 100 leaves 1/16 free) and about half to
// 15/16 after random inserts; a record costs its column bytes plus a 5-byte header, a 6-byte
// trx id and a 7-byte roll pointer in the clustered index; a node pointer is the key plus a
// 4-byte child page number plus the header. Sysbench rows (id INT, k INT, c CHAR(120),
// pad CHAR(60)) give ~75 rows per leaf and ~1,100 node pointers per internal page.
package schema
