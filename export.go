package medkb

import (
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// Export calls fn for every document, in id order, with tier and type resolved.
func (db *DB) Export(fn func(*Doc) error) error {
	g, release, err := db.snapshot()
	if err != nil {
		return err
	}
	defer release()
	return g.st.ForEachDoc(func(d *base.Doc, _ store.DocInfo) error { return fn((*Doc)(d)) })
}
