package store

import (
	"bytes"
	"fmt"
	"strings"
)

// checkPages walks every bucket's B+tree from the meta page the way bbolt
// would, but with ordinary reads and bounds checks, and reports what is
// wrong, naming the page and the bucket: pages that name another page
// (zeroed or overwritten), unknown page types, elements or overflow pages
// that run past their page or the file, keys out of order, pages reached
// twice (which also stops a cycle), free pages still in use, and pages
// neither in use nor free. It reports at most limit problems; a page that
// is wrong is not descended into. It also returns the top-level buckets
// whose pages are damaged ("(root)" when the root bucket's are): bbolt
// can read every page of the others without faulting or looping, and
// when none is damaged bbolt's own check may run too.
func (bf *boltFile) checkPages(limit int) (problems []error, damaged map[string]bool) {
	n := bf.meta.pgid
	w := &pageWalk{bf: bf, limit: limit, seen: make(pageSet, n), free: make(pageSet, n), damaged: map[string]bool{}}
	w.seen.add(0)
	w.seen.add(1)
	if bf.meta.freelist != noFreelist {
		p, _ := bf.page(bf.meta.freelist) // read once already by validate
		for i := uint64(0); i <= uint64(ne.Uint32(p[12:])); i++ {
			w.seen.add(bf.meta.freelist + i)
		}
	}
	for _, id := range bf.free {
		switch {
		case id < 2 || id >= bf.meta.pgid:
			w.add("freelist: page %d is outside pages 2..%d", id, bf.meta.pgid-1)
		case w.free.has(id):
			w.add("freelist: page %d is freed twice", id)
		}
		w.free.add(id)
	}
	w.tree(bf.meta.root, "(root)", nil, nil)
	var unreached []uint64
	for id := uint64(2); id < bf.meta.pgid; id++ {
		if !w.seen.has(id) && !w.free.has(id) {
			unreached = append(unreached, id)
		}
	}
	if len(unreached) > 0 {
		w.add("%d page(s) neither in use nor free, the first page %d", len(unreached), unreached[0])
	}
	return w.problems, w.damaged
}

// pageSet is a set of page ids below the meta page's high-water mark;
// ids at or past it are never members.
type pageSet []bool

func (s pageSet) has(id uint64) bool { return id < uint64(len(s)) && s[id] }

func (s pageSet) add(id uint64) {
	if id < uint64(len(s)) {
		s[id] = true
	}
}

type pageWalk struct {
	bf       *boltFile
	limit    int
	seen     pageSet // pages reached (with their overflow pages)
	free     pageSet
	problems []error
	damaged  map[string]bool // top-level buckets with a damaged page
}

func (w *pageWalk) add(format string, args ...any) {
	if len(w.problems) < w.limit {
		w.problems = append(w.problems, corruptFile(w.bf.path, format, args...))
	}
}

// damage records a problem in bucket (a path such as "docs" or "(root)").
func (w *pageWalk) damage(bucket, format string, args ...any) {
	top, _, _ := strings.Cut(bucket, "/")
	w.damaged[top] = true
	w.add("bucket %s: "+format, append([]any{bucket}, args...)...)
}

// tree checks the page id of bucket and everything below it; its keys must
// lie in [lo, hi) (nil: unbounded).
func (w *pageWalk) tree(id uint64, bucket string, lo, hi []byte) {
	if len(w.problems) >= w.limit {
		return
	}
	if id < 2 || id >= w.bf.meta.pgid {
		w.damage(bucket, "reaches page %d, outside pages 2..%d", id, w.bf.meta.pgid-1)
		return
	}
	if w.seen.has(id) {
		w.damage(bucket, "page %d is reached twice", id)
		return
	}
	p, err := w.bf.page(id)
	if err != nil {
		w.damage(bucket, "%v", err)
		return
	}
	for i := uint64(0); i*uint64(w.bf.pageSize) < uint64(len(p)); i++ {
		if w.free.has(id + i) {
			w.damage(bucket, "page %d is in use and free", id+i)
		}
		w.seen.add(id + i)
	}
	flags, count := ne.Uint16(p[8:]), int(ne.Uint16(p[10:]))
	if flags != branchPage && flags != leafPage {
		w.damage(bucket, "page %d has type %#x, not a branch or leaf page", id, flags)
		return
	}
	w.node(p, id, flags == branchPage, count, bucket, lo, hi)
}

// node checks the elements of one page (or of an inline bucket's page,
// id 0) and descends into its children and nested buckets.
func (w *pageWalk) node(p []byte, id uint64, branch bool, count int, bucket string, lo, hi []byte) {
	where := "inline page"
	if id != 0 {
		where = fmt.Sprintf("page %d", id)
	}
	if pageHeaderSize+count*elemSize > len(p) {
		w.damage(bucket, "%s: %d elements do not fit in %d bytes", where, count, len(p))
		return
	}
	if branch && count == 0 {
		w.damage(bucket, "%s: a branch page with no elements", where)
		return
	}
	type elem struct {
		key, val []byte
		child    uint64
		flags    uint32
	}
	elems := make([]elem, count)
	for i := range elems {
		off := pageHeaderSize + i*elemSize
		e := p[off:]
		var pos, ksize, vsize uint64
		if branch {
			pos, ksize = uint64(ne.Uint32(e[0:])), uint64(ne.Uint32(e[4:]))
			elems[i].child = ne.Uint64(e[8:])
		} else {
			elems[i].flags = ne.Uint32(e[0:])
			pos, ksize, vsize = uint64(ne.Uint32(e[4:])), uint64(ne.Uint32(e[8:])), uint64(ne.Uint32(e[12:]))
		}
		start := uint64(off) + pos
		if start+ksize+vsize > uint64(len(p)) {
			w.damage(bucket, "%s: element %d runs past the page's %d bytes", where, i, len(p))
			return
		}
		elems[i].key = p[start : start+ksize]
		elems[i].val = p[start+ksize : start+ksize+vsize]
	}
	for i, e := range elems {
		if (i > 0 && bytes.Compare(elems[i-1].key, e.key) >= 0) || (lo != nil && bytes.Compare(e.key, lo) < 0) || (hi != nil && bytes.Compare(e.key, hi) >= 0) {
			w.damage(bucket, "%s: key %d (%.40q) out of order", where, i, e.key)
			return
		}
	}
	for i, e := range elems {
		switch {
		case branch:
			var next []byte
			if i+1 < len(elems) {
				next = elems[i+1].key
			} else {
				next = hi
			}
			w.tree(e.child, bucket, e.key, next)
		case e.flags&bucketLeaf != 0:
			w.bucket(e.val, bucket+"/"+string(e.key), id)
		}
	}
}

// bucket checks a nested bucket from its value in the parent's leaf.
func (w *pageWalk) bucket(v []byte, name string, parent uint64) {
	if name[0] == '(' { // a top-level bucket: drop the "(root)/" prefix
		name = name[len("(root)/"):]
	}
	if len(v) < bucketHeader {
		w.damage(name, "its header on page %d is cut short", parent)
		return
	}
	if root := ne.Uint64(v); root != 0 {
		w.tree(root, name, nil, nil)
		return
	}
	inline := v[bucketHeader:] // an inline bucket: a leaf page inside the value
	if len(inline) < pageHeaderSize || ne.Uint16(inline[8:]) != leafPage {
		w.damage(name, "its inline page on page %d is damaged", parent)
		return
	}
	w.node(inline, 0, false, int(ne.Uint16(inline[10:])), name, nil, nil)
}
