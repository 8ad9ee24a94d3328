//go:build !linux

package vector

// allocFloats uses the Go heap where huge-page advice is not available.
func allocFloats(n int) (f []float32, mapping []byte) { return make([]float32, n), nil }

func freeMapping([]byte) {}
