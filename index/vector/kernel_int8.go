package vector

// The int8 codes are kept in tiles of tileRows rows, dimension pair by
// dimension pair: pair p (dimensions 2p and 2p+1) of the tile's rows is
// one column of 2*tileRows codes, row r's two codes at 2r and 2r+1. A
// query then reads only the columns of the pairs where it has a non-zero
// code (see doc.go, "Tiles").
const tileRows = 64

// columnBytes is the size of one pair's column in a tile: two cache
// lines.
const columnBytes = 2 * tileRows

// An int8Kernel writes into dst[tileRows*t+r] the integer dot product of
// row r of tile t of tiles (len(dst)/tileRows tiles of tileBytes codes
// each) with the query, given as its active pairs: query holds, for each
// pair with a non-zero code, the byte offset of the pair's column in a
// tile (p*columnBytes) followed by the pair's two codes packed in one
// int32 (the even dimension's in the low 16 bits). The sums fit in int32
// (see queryMax), so every kernel gives the same exact result. len(dst)
// is a multiple of tileRows.
type int8Kernel func(dst []int32, tiles []int8, tileBytes int, query []int32)

// codeStride is the length of a stored code row for vectors of dim
// floats: dim rounded up to a multiple of 16, with zero codes as padding.
// Whole pairs would do for the tiles; 16 keeps queryMax, and with it
// every approximate score, what it was with row-major codes.
func codeStride(dim int) int { return (dim + 15) &^ 15 }

// activePairs returns the query codes qc (a row's stride of them) as an
// int8Kernel's query: the pairs where qc has a non-zero code. A query's
// zero codes add nothing to any dot product, so the kernels skip their
// columns; a sparse query (the built-in embedder's short queries set some
// 30 of 384 dimensions) reads a fraction of the codes.
func activePairs(qc []int16) []int32 {
	query := make([]int32, 0, len(qc))
	for p := 0; p < len(qc)/2; p++ {
		if a, b := qc[2*p], qc[2*p+1]; a != 0 || b != 0 {
			query = append(query, int32(p*columnBytes), int32(uint16(a))|int32(b)<<16)
		}
	}
	return query
}

// CodeBytesRead is how many bytes of each row's codes an int8 scan for q
// reads: two for each pair of dimensions where q's codes are not both
// zero (for `medkb bench vector`).
func CodeBytesRead(q []float32) int {
	qc := make([]int16, codeStride(len(q)))
	queryCodes(qc, q)
	return len(activePairs(qc)) // two int32s a pair, as a pair has two bytes a row
}

// dotsInt8Go is the pure-Go twin of the SIMD int8 kernel.
func dotsInt8Go(dst []int32, tiles []int8, tileBytes int, query []int32) {
	for t := range len(dst) / tileRows {
		acc := dst[t*tileRows : (t+1)*tileRows]
		clear(acc)
		tile := tiles[t*tileBytes : (t+1)*tileBytes]
		for i := 0; i < len(query); i += 2 {
			col := tile[query[i] : query[i]+columnBytes]
			qa, qb := int32(int16(query[i+1])), query[i+1]>>16
			for r := range acc {
				acc[r] += int32(col[2*r])*qa + int32(col[2*r+1])*qb
			}
		}
	}
}

// int8Scan is the int8 kernel new indexes use: dotsInt8AVX2 where the CPU
// has AVX2 (set in kernel_int8_amd64.go), otherwise dotsInt8Go.
var (
	int8Scan       int8Kernel = dotsInt8Go
	int8KernelName            = "go int8"
)

// CodeBytes is the memory one vector of dim floats takes in an int8
// scan: its codes (dim rounded up to 16), without the scale and without
// the padding of the last, partly filled tile.
func CodeBytes(dim int) int { return codeStride(dim) }

// KernelName names the kernel a scan of vectors of dim floats runs on
// this machine: for ScanF32 (and ScanDefault) "avx2-fma f32" (medkb's
// own, for a dim that is a multiple of 16), else "avx2-fma f32 (vek)" or
// "go f32 (vek)"; for ScanInt8 "avx2 int8" or "go int8".
func KernelName(s Scan, dim int) string {
	if s == ScanInt8 {
		return int8KernelName
	}
	_, name := f32KernelFor(dim)
	return name
}
