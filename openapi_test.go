package medkb

import (
	"encoding"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// specPath is the OpenAPI document of the HTTP API, relative to the
// package (the module root).
const specPath = "docs/api/openapi.json"

// specSchemas maps each schema of the spec that mirrors a Go type to that
// type: the spec's properties must be the JSON names encoding/json writes
// for it. A schema of the spec that is not here must have no Go twin
// (ErrorResponse, an anonymous wrapper).
var specSchemas = map[string]reflect.Type{
	"Result":         reflect.TypeFor[Result](),
	"Item":           reflect.TypeFor[Item](),
	"Provenance":     reflect.TypeFor[Provenance](),
	"ArmScore":       reflect.TypeFor[ArmScore](),
	"Dropped":        reflect.TypeFor[Dropped](),
	"Expansion":      reflect.TypeFor[Expansion](),
	"Path":           reflect.TypeFor[Path](),
	"Relevance":      reflect.TypeFor[Relevance](),
	"Gate":           reflect.TypeFor[Gate](),
	"GateSentence":   reflect.TypeFor[GateSentence](),
	"Quota":          reflect.TypeFor[Quota](),
	"OpReport":       reflect.TypeFor[OpReport](),
	"Stats":          reflect.TypeFor[Stats](),
	"DocView":        reflect.TypeFor[DocView](),
	"ChunkView":      reflect.TypeFor[ChunkView](),
	"Doc":            reflect.TypeFor[Doc](),
	"Entity":         reflect.TypeFor[Entity](),
	"Triple":         reflect.TypeFor[Triple](),
	"Source":         reflect.TypeFor[Source](),
	"IngestResult":   reflect.TypeFor[ingestReply](),
	"DeleteResult":   reflect.TypeFor[deleteReply](),
	"CheckReport":    reflect.TypeFor[checkReply](),
	"RebuildResult":  reflect.TypeFor[rebuildReply](),
	"Health":         reflect.TypeFor[healthReply](),
	"Error":          reflect.TypeFor[errorObject](),
	"Plan":           reflect.TypeFor[explainReply](),
	"QueryRequest":   reflect.TypeFor[queryRequest](),
	"IngestRequest":  reflect.TypeFor[ingestRequest](),
	"DeleteRequest":  reflect.TypeFor[deleteRequest](),
	"RebuildRequest": reflect.TypeFor[rebuildRequest](),
	"BackupRequest":  reflect.TypeFor[backupRequest](),
}

// schema is the part of an OpenAPI 3.1 schema object the test reads.
type schema struct {
	Ref                  string             `json:"$ref"`
	Type                 any                `json:"type"` // "string" or ["string", "null"]
	Items                *schema            `json:"items"`
	AdditionalProperties *schema            `json:"additionalProperties"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	AnyOf                []*schema          `json:"anyOf"`
	AllOf                []*schema          `json:"allOf"`
}

type spec struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]*schema `json:"schemas"`
	} `json:"components"`
}

func readSpec(t *testing.T) *spec {
	t.Helper()
	b, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	var s spec
	var doc any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", specPath, err)
	}
	json.Unmarshal(b, &doc) // valid: it just decoded
	var refs func(v any)
	refs = func(v any) { // every $ref of the document resolves
		switch v := v.(type) {
		case map[string]any:
			if r, ok := v["$ref"].(string); ok && resolvePointer(doc, r) == nil {
				t.Errorf("%s: $ref %q points at nothing", specPath, r)
			}
			for _, x := range v {
				refs(x)
			}
		case []any:
			for _, x := range v {
				refs(x)
			}
		}
	}
	refs(doc)
	return &s
}

// resolvePointer returns what the local reference "#/a/b" names in doc,
// nil if nothing.
func resolvePointer(doc any, ref string) any {
	path, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil
	}
	for _, key := range strings.Split(path, "/") {
		m, ok := doc.(map[string]any)
		if !ok {
			return nil
		}
		doc = m[key]
	}
	return doc
}

// lookup resolves a "#/components/schemas/NAME" reference; nil if none.
func (s *spec) lookup(ref string) *schema {
	name, ok := strings.CutPrefix(ref, "#/components/schemas/")
	if !ok {
		return nil
	}
	return s.Components.Schemas[name]
}

// TestOpenAPIRoutes: the spec documents exactly the server's routes.
func TestOpenAPIRoutes(t *testing.T) {
	s := readSpec(t)
	var documented []string
	for path, item := range s.Paths {
		for method := range item {
			switch method {
			case "get", "put", "post", "delete", "patch", "head", "options":
				documented = append(documented, strings.ToUpper(method)+" "+path)
			}
		}
	}
	served := APIRoutes()
	sort.Strings(documented)
	sort.Strings(served)
	if !slices.Equal(documented, served) {
		t.Errorf("%s documents\n\t%s\nthe server's routes are\n\t%s", specPath,
			strings.Join(documented, "\n\t"), strings.Join(served, "\n\t"))
	}
}

// TestOpenAPISchemas: each schema that mirrors a Go type has exactly the
// JSON names encoding/json writes for it, required exactly when the name
// is always written (no omitempty), and a type that fits the Go field's.
func TestOpenAPISchemas(t *testing.T) {
	s := readSpec(t)
	for name := range s.Components.Schemas {
		if _, ok := specSchemas[name]; !ok && name != "ErrorResponse" {
			t.Errorf("schema %s mirrors no Go type: add it to specSchemas", name)
		}
	}
	for name, typ := range specSchemas {
		sc := s.Components.Schemas[name]
		if sc == nil {
			t.Errorf("%s: no schema %s (Go type %v)", specPath, name, typ)
			continue
		}
		props, required := s.flatten(sc)
		fields := jsonFields(typ)
		var want, wantRequired, have []string
		for _, f := range fields {
			want = append(want, f.name)
			if !f.omitempty {
				wantRequired = append(wantRequired, f.name)
			}
		}
		for p := range props {
			have = append(have, p)
		}
		sort.Strings(want)
		if written := marshalledNames(t, typ); !slices.Equal(written, want) {
			// A MarshalJSON of its own (Path's) writes other names than the struct's.
			t.Errorf("Go's %v marshals %v, its fields say %v", typ, written, want)
		}
		sort.Strings(have)
		sort.Strings(wantRequired)
		sort.Strings(required)
		if !slices.Equal(have, want) {
			t.Errorf("schema %s has properties %v; Go's %v marshals %v", name, have, typ, want)
			continue
		}
		if !slices.Equal(required, wantRequired) {
			t.Errorf("schema %s requires %v; Go's %v always writes %v (the rest are omitempty)", name, required, typ, wantRequired)
		}
		for _, f := range fields {
			if msg := s.mismatch(props[f.name], f.typ, f.omitempty); msg != "" {
				t.Errorf("schema %s property %s (Go %v): %s", name, f.name, f.typ, msg)
			}
		}
	}
}

// flatten returns a schema's properties and required names, those of its
// allOf members included (DocView is Doc's and its own).
func (s *spec) flatten(sc *schema) (map[string]*schema, []string) {
	props := map[string]*schema{}
	var required []string
	var walk func(sc *schema)
	walk = func(sc *schema) {
		if sc.Ref != "" {
			if sc = s.lookup(sc.Ref); sc == nil {
				return
			}
		}
		for k, v := range sc.Properties {
			props[k] = v
		}
		required = append(required, sc.Required...)
		for _, m := range sc.AllOf {
			walk(m)
		}
	}
	walk(sc)
	return props, required
}

// marshalledNames returns the names json.Marshal writes for a value of
// the struct t whose every field is set, sorted.
func marshalledNames(t *testing.T, typ reflect.Type) []string {
	b, err := json.Marshal(filled(typ).Interface())
	if err != nil {
		t.Fatalf("%v: %v", typ, err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatalf("%v: %v", typ, err)
	}
	var names []string
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// filled returns a value of t with every exported field, pointer, slice
// and map set to something not empty, so that omitempty leaves nothing
// out; an interface stays nil.
func filled(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Pointer:
		v.Set(filled(t.Elem()).Addr())
	case reflect.Slice:
		v.Set(reflect.Append(v, filled(t.Elem())))
	case reflect.Map:
		v.Set(reflect.MakeMap(t))
		v.SetMapIndex(filled(t.Key()), filled(t.Elem()))
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				v.Field(i).Set(filled(t.Field(i).Type))
			}
		}
	}
	return v
}

// field is one name in a Go type's JSON object.
type field struct {
	name      string
	typ       reflect.Type
	omitempty bool
}

// jsonFields lists the names encoding/json writes for the struct t: the
// json tag's name or the Go name, "-" skipped, unexported fields skipped,
// untagged embedded structs flattened.
func jsonFields(t reflect.Type) []field {
	var out []field
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, field{name: name, typ: f.Type, omitempty: slices.Contains(strings.Split(opts, ","), "omitempty")})
	}
	return out
}

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

// mismatch says how the property sc fails to describe values of the Go
// type t, "" when it fits: its JSON type, whether it can be null (a
// pointer written without omitempty must be nullable; a value that is
// neither pointer, slice, map nor interface must not), a $ref to the
// schema of a mirrored struct, and the same for elements.
func (s *spec) mismatch(sc *schema, t reflect.Type, omitempty bool) string {
	types, ref := s.kinds(sc)
	nullable := slices.Contains(types, "null")
	switch t.Kind() {
	case reflect.Pointer:
		if !omitempty && !nullable {
			return "a nil pointer is written as null, but the schema does not allow null"
		}
		return s.mismatch(dropNull(sc), t.Elem(), true)
	case reflect.Slice, reflect.Map, reflect.Interface:
	default:
		if nullable {
			return "allows null, which Go never writes"
		}
	}
	if t.Kind() == reflect.Interface {
		return ""
	}
	want := jsonType(t)
	if !slices.Contains(types, want) {
		return "type " + strings.Join(types, "|") + ", want " + want
	}
	if t.Kind() == reflect.Struct {
		name, ok := schemaOf(t)
		if !ok {
			return "no schema mirrors " + t.String() + ": add one to the spec and to specSchemas"
		}
		if ref != "#/components/schemas/"+name {
			return "want $ref #/components/schemas/" + name + ", have " + strconv.Quote(ref)
		}
	}
	sc = s.resolve(dropNull(sc))
	switch {
	case t.Kind() == reflect.Slice && want == "array":
		if sc.Items == nil {
			return "an array without items"
		}
		return s.mismatch(sc.Items, t.Elem(), true)
	case t.Kind() == reflect.Map:
		if sc.AdditionalProperties == nil {
			return "a map without additionalProperties"
		}
		return s.mismatch(sc.AdditionalProperties, t.Elem(), true)
	}
	return ""
}

// kinds returns the JSON types a property schema allows ("null" among
// them when it does) and the schema it references, if any.
func (s *spec) kinds(sc *schema) (types []string, ref string) {
	for _, alt := range append([]*schema{sc}, sc.AnyOf...) {
		if alt.Ref != "" {
			ref = alt.Ref
			if r := s.lookup(alt.Ref); r != nil {
				alt = r
			}
			if len(alt.AllOf) > 0 {
				types = append(types, "object")
			}
		}
		switch v := alt.Type.(type) {
		case string:
			types = append(types, v)
		case []any:
			for _, x := range v {
				if x, ok := x.(string); ok {
					types = append(types, x)
				}
			}
		}
	}
	return types, ref
}

// dropNull returns the non-null alternative of an anyOf [X, null], or sc.
func dropNull(sc *schema) *schema {
	for _, alt := range sc.AnyOf {
		if alt.Type != "null" {
			return alt
		}
	}
	return sc
}

// resolve follows sc's $ref.
func (s *spec) resolve(sc *schema) *schema {
	if sc.Ref != "" {
		if r := s.lookup(sc.Ref); r != nil {
			return r
		}
	}
	return sc
}

// jsonType is the JSON type encoding/json writes for t (not a pointer).
func jsonType(t reflect.Type) string {
	if t.Implements(textMarshaler) {
		return "string"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	}
	return "object"
}

// schemaOf is the name of the schema mirroring the struct t.
func schemaOf(t reflect.Type) (string, bool) {
	for name, typ := range specSchemas {
		if typ == t {
			return name, true
		}
	}
	return "", false
}
