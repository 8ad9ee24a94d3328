package vector

// The int8 codes are kept in tiles of tileRows rows, one column per
// dimension: dimension d's codes of the tile's rows are the columnBytes
// bytes at d*columnBytes, row r's at d*columnBytes+r. A query then reads
// only the columns of the dimensions where it has a non-zero code, and a
// column is two whole cache lines (128-byte aligned in the tile: the
// codes buffer comes from mmap, or a Go heap object of at least 2 KiB,
// both 128-byte aligned, and a tile is 128*codeStride bytes), so
// the pair of lines the hardware fetches together is of one dimension
// (see doc.go, "Tiles").
const tileRows = 128

// columnBytes is the size of one dimension's column in a tile: two cache
// lines.
const columnBytes = tileRows

// An int8Kernel writes into dst[tileRows*t+r] the integer dot product of
// row r of tile t of tiles (len(dst)/tileRows tiles of tileBytes codes
// each) with the query, given as its active columns (activeColumns):
// three int32s for each two dimensions where the query's code is not
// zero. The sums fit in int32 (see queryMax), so every kernel gives the
// same exact result. len(dst) is a multiple of tileRows.
type int8Kernel func(dst []int32, tiles []int8, tileBytes int, query []int32)

// codeStride is the length of a stored code row for vectors of dim
// floats: dim rounded up to a multiple of 16, with zero codes as padding.
// The columns need no padding; 16 keeps queryMax, and with it every
// approximate score, what it was with row-major codes, and keeps a tile
// (tileRows*codeStride bytes) a multiple of 128 bytes long.
func codeStride(dim int) int { return (dim + 15) &^ 15 }

// activeColumns returns the query codes qc (a row's stride of them) as
// an int8Kernel's query: the dimensions where qc has a non-zero code,
// taken two at a time, A then B, in ascending order. Each two are three
// int32s: the byte offset in a tile of A's column (A*columnBytes), that
// of B's, and the two codes packed in one int32 (A's in the low 16 bits,
// B's in the high). With an odd count the last entry's B is A again with
// a zero code, which adds nothing and reads no other column. A query's
// zero codes add nothing to any dot product, so the kernels skip their
// columns; a sparse query (the built-in embedder's short queries set some
// 30 of 384 dimensions) reads a fraction of the codes.
func activeColumns(qc []int16) []int32 {
	query := make([]int32, 0, 3*((len(qc)+1)/2))
	a := -1 // an active dimension waiting for its partner
	for d, v := range qc {
		switch {
		case v == 0:
		case a < 0:
			a = d
		default:
			query = append(query, int32(a*columnBytes), int32(d*columnBytes), int32(uint16(qc[a]))|int32(v)<<16)
			a = -1
		}
	}
	if a >= 0 {
		query = append(query, int32(a*columnBytes), int32(a*columnBytes), int32(uint16(qc[a])))
	}
	return query
}

// CodeBytesRead is how many bytes of each row's codes an int8 scan for q
// reads: one for each dimension where q's code is not zero (for `medkb
// bench vector`).
func CodeBytesRead(q []float32) int {
	qc := make([]int16, codeStride(len(q)))
	queryCodes(qc, q)
	n := 0
	for _, v := range qc {
		if v != 0 {
			n++
		}
	}
	return n
}

// dotsInt8Go is the pure-Go twin of the SIMD int8 kernel.
func dotsInt8Go(dst []int32, tiles []int8, tileBytes int, query []int32) {
	for t := range len(dst) / tileRows {
		acc := dst[t*tileRows : (t+1)*tileRows]
		clear(acc)
		tile := tiles[t*tileBytes : (t+1)*tileBytes]
		for i := 0; i < len(query); i += 3 {
			a := tile[query[i]:][:columnBytes]
			b := tile[query[i+1]:][:columnBytes]
			qa, qb := int32(int16(query[i+2])), query[i+2]>>16
			for r := range acc {
				acc[r] += int32(a[r])*qa + int32(b[r])*qb
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
