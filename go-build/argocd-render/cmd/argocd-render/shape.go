package main

import (
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
)

// goField is one JSON field of a Go struct as encoding/json sees it.
type goField struct {
	JSON      string `json:"json"`
	OmitEmpty bool   `json:"omitempty,omitempty"`
	Type      any    `json:"type"`
}

// shapeWriter collects the struct types reachable from a root type, by name.
type shapeWriter struct {
	types map[string][]goField
	paths map[string]string
}

var (
	jsonMarshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshaler = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

// typeOf describes a Go type for encoding/json: "string", "bool", "number", "any" (a type that marshals itself, or
// an interface), or {"ptr"|"slice"|"map": T} or {"struct": name}.
func (s *shapeWriter) typeOf(t reflect.Type) any {
	if t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) || t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		return "any"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Pointer:
		return map[string]any{"ptr": s.typeOf(t.Elem())}
	case reflect.Slice, reflect.Array:
		return map[string]any{"slice": s.typeOf(t.Elem())}
	case reflect.Map:
		return map[string]any{"map": s.typeOf(t.Elem())}
	case reflect.Struct:
		return map[string]any{"struct": s.addStruct(t)}
	default:
		return "any"
	}
}

// addStruct records a struct's JSON fields (embedded structs without a name inline, as encoding/json does).
func (s *shapeWriter) addStruct(t reflect.Type) string {
	name := t.Name()
	if other, ok := s.paths[name]; ok && other != t.PkgPath() {
		panic(fmt.Sprintf("two struct types named %s: %s and %s", name, other, t.PkgPath()))
	}
	if _, ok := s.types[name]; ok {
		return name
	}
	s.paths[name] = t.PkgPath()
	s.types[name] = nil
	s.types[name] = s.fieldsOf(t)
	return name
}

func (s *shapeWriter) fieldsOf(t reflect.Type) []goField {
	fields := []goField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			fields = append(fields, s.fieldsOf(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields = append(fields, goField{JSON: name, OmitEmpty: strings.Contains(","+opts+",", ",omitempty,"), Type: s.typeOf(f.Type)})
	}
	return fields
}

// printApplicationShape writes, as JSON, the encoding/json shape of Argo CD's ApplicationSpec: what the
// ApplicationSet controller's Go structs keep, drop (omitempty) and add (structs that are not pointers).
func printApplicationShape(w io.Writer) error {
	s := &shapeWriter{types: map[string][]goField{}, paths: map[string]string{}}
	root := s.addStruct(reflect.TypeOf(argov1alpha1.ApplicationSpec{}))
	out, err := json.MarshalIndent(map[string]any{"root": root, "types": s.types}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(out))
	return err
}
