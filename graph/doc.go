// Package graph is medkb's knowledge graph: readers for triple, entity,
// Hetionet and TCM files, an immutable in-memory graph with compact
// adjacency, the metapath language, an entity linker, and metapath
// expansion that turns graph walks into ranked, textual evidence.
//
// # Data flow
//
// The store persists []base.Entity and []base.Triple, the system of
// record. Build makes the in-memory graph from them; MarshalBinary and
// Decode turn a built graph into bytes and back, so that the store can
// keep the graph's compact form beside the triples and a process opens
// it with one read instead of a build:
//
//	ingest:  Detect(path) -> ReadTriples / ReadEntities /
//	         ReadHetionetNodes / ReadHetionetEdges -> store
//	         (Hetionet's metanodes.tsv and metaedges.tsv are detected as
//	         metadata and not read)
//	open:    store -> Build(ents, triples) -> *Graph -> MarshalBinary
//	         or the saved bytes -> Decode -> *Graph
//	query:   ParseMetapath -> g.CheckMetapath (bind time)
//	         g.LinkReport(ctx, query or chunk text, start type) -> anchors, skipped
//	         g.Expand(ctx, anchors, metapath, opts) -> []Path -> Path.TextIn
//
// On Hetionet (47,031 nodes, 981,679 stored edges) reading the triples
// from the store and building takes seconds and most of a gigabyte;
// decoding its 11 MB binary form takes 20-30 ms and 14 MB
// (BenchmarkHetionetDecode).
//
// # The graph
//
// Entities are keyed by (type, name). Build sorts them by type, then
// name, and numbers them from 0, so a NodeID depends only on the set of
// entities, not on input order; the nodes of one type form one id range.
// Each relation keeps compressed sparse rows in both directions (uint32
// offsets and targets, float32 weights only when some edge has one),
// covering only the id range of nodes that have edges. Hetionet (47,031
// nodes, 765,796 edges, 981,679 once the undirected metaedges are stored
// both ways) needs about 9 MB of adjacency.
//
// Names are the contract with the query language: a type or relation is
// a run of letters, digits, combining marks and '_' (IsName), with no
// spaces, so readers reject other types and relations, and the Hetionet
// reader writes "Side Effect" as Side_Effect. Relation names keep the
// spelling of their source (treats, HAS_HERB, 导致) and match exactly.
// Readers, and CheckEntity and CheckTriple for records from elsewhere,
// also cap what a line may bring (MaxNameBytes for names and aliases,
// MaxTypeBytes, MaxSourceBytes, MaxAliases) and refuse control characters
// in names: the store joins a triple's fields with NUL into one key, so a
// NUL in a name would make a key that no longer splits back.
//
// # Metapaths and expansion
//
// A metapath such as "Compound -binds-> Gene <-associates- Disease" is a
// start type and steps; "-r*->" repeats a step 1..Hops times and
// "-r*1..3->" 1..3 times. CheckMetapath verifies it against a graph with
// the rune offset of the offending name.
//
// Expand walks best-first by the path-degree product of Hetionet's DWPC
// (damping 0.5): each edge u->v multiplies the score by
// (deg(u)·deg'(v))^-0.5 <= 1, so a path never scores above its prefixes
// and the first Limit complete paths to leave the queue are the best
// Limit. Work is bounded by the paths returned and their competitors,
// not by the number of matching paths, and also by MaxWork (partial
// paths queued; a million take about 0.4 s and 40 MB on Hetionet). It
// looks at ctx every 4096 queue operations (pops and pushes, about a
// millisecond), so that a pop of a hub, which pushes thousands, cannot
// delay a deadline. A truncated expansion returns the best paths it
// completed, which are still the best in order, only fewer.
//
// A chain between two anchors (ExpandOptions.Join) is often the answer
// and seldom among the best by degree product: seed 001's 长期忧虑 ->
// 肝气郁结 -> 郁久化火 -> 肝火上扰心神 -> 失眠多梦 scores 0.5, below every
// shorter path from 长期忧虑. With Join the search goes on past the Limit
// best, for at most JoinWork more partial paths, to collect up to Limit
// paths that reach another anchor (Path.Joins); the planner ranks them.
//
// # Linking
//
// Link matches the names and aliases of the start type's entities in
// text with one Aho-Corasick automaton per type, built on the type's
// first use (in the background: LinkContext stops waiting when its
// context ends, and the build goes on for the next caller); the first
// build also normalises every entity's names into one dictionary. On
// Hetionet (47,031 entities) the first link of Disease takes 0.1-0.3 s
// on two loaded cores, of Gene 0.15-0.4 s (BenchmarkHetionetColdLink);
// one automaton over every type, which a cold EXPAND query used to wait
// for, took 0.8-1.8 s.
// Matching is on normalised text (simple case folding, full-width to
// half-width, white space collapsed) with byte offsets mapped back to the
// original. Latin-script names need word boundaries; Chinese names match
// anywhere, which is why two more rules are needed, both learned on the
// TCM graph, whose herbs include one-character names split from longer
// ones (黄, 血, 肠, 干):
//
//   - longest match across types: a match inside a longer match of any
//     type is not anchored, so 肠 in the formula 鸡肠散 and the herb 黄连
//     in 黄连解毒汤 are not herbs of the text;
//   - a one-character name is anchored only standing alone (the whole
//     text, or between punctuation, white space and the text's ends), so
//     黄 in 黄芩 (no entity of the graph) and 血 in 血常规 are not.
//
// The first rule needs no automaton of the other types: building a
// type's automaton also runs it over every key of the dictionary and
// keeps, for each of its names, the longer keys that hold it and where;
// a match is nested when one of those keys is in the text around it.
//
// Only entities of the start type are anchored; other types only hide
// the names nested in theirs. LinkReport also returns the mentions of
// the start type it skipped and why (Skip), for EXPLAIN ANALYZE. On 66
// questions about the TCM graph (testdata/bench/tcm_queries.txt) this
// took the anchors from 245 (153 of one character, 7 nested) to 85, none
// of them, with no named entity lost.
//
// # Path text
//
// Path.TextIn renders a path as sentences in Chinese or English,
// whatever the language of its names, without type names (the
// provenance keeps them): "myocardial infarction has the symptom chest
// pain", "胃癌的症状包括黑便". Text picks the language of the names.
//
// # Invariants
//
//   - A Graph never changes after Build or Decode; all methods are safe
//     for concurrent use (the lazily built linker is started once and
//     published by closing a channel).
//   - Decode(g.MarshalBinary()) answers every method as g does. Decode
//     checks every count, offset, index and order the methods rely on,
//     so damaged input is an ErrBadEncoding, never a panic (FuzzDecode);
//     it does not check that the in and out adjacency mirror each other
//     (the store's checksum guards the bytes).
//   - Every triple's endpoints exist as entities; each (head, relation,
//     tail) is stored once; adjacency lists are sorted by id.
//   - Expand's result is a deterministic function of the graph, the
//     anchors (as a set), the metapath and the options.
//
// # Caveats
//
//   - Relations are directed. Data with undirected edges must store both
//     directions (the Hetionet reader does this for resembles, interacts
//     and covaries); otherwise write the metapath step both ways.
//   - The score ignores edge weights; Path.Weights reports them.
//   - Case folding is simple (per rune), so "STRASSE" does not match
//     "Straße"; normalisation does not strip accents or convert
//     traditional to simplified Chinese.
//   - Ambiguous names link to every entity of the start type that has
//     them; there is no disambiguation by context.
//   - A name inside a longer name of any type is never anchored, also
//     when the longer one is a different thing: "EGFR mutation test"
//     names the test, not the gene EGFR.
//   - The TCM data spells many herbs with a processing suffix (黄芩片,
//     黄连片): "黄芩" in a question links to no herb.
//   - The TCM data spells one type two ways (Ingredient, Ingeredient);
//     the reader keeps source spellings rather than guess.
//   - Headerless TSV is taken for triples when it has five to seven
//     columns, so Detect can mistake another five-column table for
//     triples; give triple TSV files a header. A two-column TSV is taken
//     for documents (id, text), and a header with a metaedge or metanode
//     column for Hetionet metadata.
package graph
