package base

// Entity is a knowledge-graph node: a name unique within its type, with
// optional aliases used by the entity linker.
type Entity struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Aliases []string `json:"aliases,omitempty"`
}

// Triple is a typed, directed edge head -relation-> tail.
type Triple struct {
	Head     string  `json:"head"`
	HeadType string  `json:"head_type"`
	Relation string  `json:"relation"`
	Tail     string  `json:"tail"`
	TailType string  `json:"tail_type"`
	Source   string  `json:"source,omitempty"`
	Weight   float64 `json:"weight,omitempty"`
}
