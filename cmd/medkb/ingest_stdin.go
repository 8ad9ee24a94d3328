package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// spoolStdin copies standard input to a temporary file when an argument
// of ingest is "-", and returns the arguments with that file's path in
// its place. An ingest reads each file twice (once to check it whole,
// once to write it in batches), which a pipe cannot give; a file rather
// than memory keeps the ingest's memory bounded however much is piped,
// as it is for a named file. cleanup removes the file; it is never nil.
func (e *env) spoolStdin(args []string) (out []string, path string, cleanup func(), err error) {
	cleanup = func() {}
	out = append([]string(nil), args...)
	for i, a := range out {
		if a != "-" {
			continue
		}
		if path != "" {
			return nil, "", cleanup, errors.New(`"-" (standard input) given twice`)
		}
		f, err := os.CreateTemp("", "medkb-stdin-*.jsonl")
		if err != nil {
			return nil, "", cleanup, fmt.Errorf("buffering standard input: %w", err)
		}
		path = f.Name()
		cleanup = func() { os.Remove(path) }
		_, err = io.Copy(f, e.stdin)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, "", cleanup, fmt.Errorf("buffering standard input: %w", err)
		}
		out[i] = path
	}
	return out, path, cleanup, nil
}
