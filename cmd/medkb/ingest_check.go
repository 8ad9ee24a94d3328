package main

import (
	"errors"
	"fmt"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/docio"
	"github.com/medkb/medkb/store"
)

// docCheck is a document file read and checked whole (checkDocs): res
// for its write, or err, why it is rejected.
type docCheck struct {
	res *docio.Result
	err error
}

// checkFirst reads and checks every document file with the store open
// read-only, and only then opens it read-write for the writes. The writer
// holds off every query while it has the store open (see package store,
// "Locks"), so it should not spend that time reading files, and a file it
// rejects should not have held anyone up. A store that does not exist yet
// is created first: nobody reads it. Graph files are checked as they are
// written, since Hetionet edges resolve against the entities written
// before them. It leaves r.db open (close it with r.close) on success and
// failure alike, unless it failed to open it. Through a server, which
// holds the store read-write, the checks and the writes use one client.
func (r *ingestRun) checkFirst(inputs []input) error {
	readOnly := true
	db, err := r.connect(true)
	if errors.Is(err, store.ErrMissing) {
		readOnly = false
		db, err = r.connect(false)
	}
	if err != nil {
		return err
	}
	r.db = db
	if _, served := db.(*medkb.Client); served && r.env.quantize != "" {
		return fmt.Errorf("%s: --quantize: the store is served by medkb serve, which holds its vectors as it opened them; ingest with the server stopped", r.env.db)
	}
	st, err := db.Stats()
	if err != nil {
		return err
	}
	if err := r.checkServedEmbedder(db, st); err != nil {
		return err
	}
	r.checkOne = docChecker(db, st)
	switch r.dim = st.Dim; {
	case r.dim == 0 && r.embedder != nil:
		r.dim = r.embedder.Dim() // --embedder's, which a new store's first write records
	case r.dim == 0:
		r.dim = medkb.DefaultDim // what a new store's first write picks
	}
	r.checked = map[string]docCheck{}
	writes := false
	for _, in := range inputs {
		c, done := r.checked[in.path]
		if in.err == nil && in.kind == graph.KindDocuments && !done {
			c.res, c.err = r.checkDocs(in)
			r.checked[in.path] = c
		}
		writes = writes || in.err == nil && in.kind != graph.KindHetionetMeta && (in.kind != graph.KindDocuments || c.err == nil)
	}
	if _, served := db.(*medkb.Client); served || !readOnly || !writes {
		return nil // a server's, a new store, or nothing to write: every file is rejected
	}
	db.Close()
	r.db, err = r.connect(false)
	return err
}

// close closes the store, if open.
func (r *ingestRun) close() {
	if r.db != nil {
		r.db.Close()
	}
}

// checkServedEmbedder refuses --embedder through a server unless it names
// the store's embedder: the server embeds with its own, and a store
// without documents is bound by the server's open, not by this command.
func (r *ingestRun) checkServedEmbedder(db kb, st *medkb.Stats) error {
	if _, served := db.(*medkb.Client); !served || r.embedder == nil {
		return nil
	}
	if st.Embedder == r.embedder.Name() && st.Dim == r.embedder.Dim() {
		return nil
	}
	have := "no embedder yet"
	if st.Embedder != "" {
		have = fmt.Sprintf("%s (dim %d)", st.Embedder, st.Dim)
	}
	return fmt.Errorf("%s: --embedder %s: a server holds the store, which has %s; "+
		"stop the server to create a store bound to another model, or leave --embedder out",
		r.env.db, r.embedder.Name(), have)
}
