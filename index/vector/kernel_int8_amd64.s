#include "textflag.h"

// func dotsInt8AVX2(dst []int32, tiles []int8, tileBytes int, query []int32)
//
// A tile of 128 rows is scored in two halves of 64 rows, four entries
// (eight columns) at a time: the entries over rows 0-63 (each column's
// first cache line), then over rows 64-127 (its second line), the sums
// kept in dst between blocks. Walking all the entries over one half and
// then over the other read a dense query's tile in two strided passes
// and scanned 100k x 384 at 3.5-3.9 ms on one core instead of 2.5-3.0.
// Registers:
//
//	DI      dst, the tile's 128 sums
//	CX      tiles left to score
//	SI      the tile
//	BX      tileBytes
//	DX, R8  query and its length in int32s (three an entry: activeColumns)
//	AX      the entry, an index into query
//	R12     the block's first entry; R13 the next block's
//	R9      column A of the entry in this half: SI + A's offset (+ 64)
//	R11     column B likewise
//	R10     the tile two ahead, whose columns are prefetched
//	Y0-Y7   the half's 64 int32 sums, rows 8j to 8j+7 in Yj
//	Y8      the entry's two query codes, A's and B's int16, in every
//	        32-bit lane
//	Y9-Y12  scratch
//
// For each 16 rows of the half, 16 codes of A and 16 of B are
// interleaved (a0 b0 a1 b1 ...), widened to int16, and multiplied by Y8
// with VPMADDWD, which adds a row's two products into its 32-bit lane.

// SUMS adds the products of the 16 rows at off in columns A and B into
// lo (their first 8 rows) and hi (the next 8).
#define SUMS(off, lo, hi) \
	VMOVDQU    off(R9), X9;   \
	VMOVDQU    off(R11), X10; \
	VPUNPCKLBW X10, X9, X11;  \
	VPUNPCKHBW X10, X9, X12;  \
	VPMOVSXBW  X11, Y11;      \
	VPMOVSXBW  X12, Y12;      \
	VPMADDWD   Y8, Y11, Y11;  \
	VPMADDWD   Y8, Y12, Y12;  \
	VPADDD     Y11, lo, lo;   \
	VPADDD     Y12, hi, hi

// HALF adds the entry's products for the half's 64 rows into Y0-Y7.
#define HALF \
	SUMS(0, Y0, Y1);  \
	SUMS(16, Y2, Y3); \
	SUMS(32, Y4, Y5); \
	SUMS(48, Y6, Y7)

#define ZERO \
	VPXOR Y0, Y0, Y0; \
	VPXOR Y1, Y1, Y1; \
	VPXOR Y2, Y2, Y2; \
	VPXOR Y3, Y3, Y3; \
	VPXOR Y4, Y4, Y4; \
	VPXOR Y5, Y5, Y5; \
	VPXOR Y6, Y6, Y6; \
	VPXOR Y7, Y7, Y7

// STORE writes the half's 64 sums at off(DI), in row order; LOAD reads
// them back.
#define STORE(off) \
	VMOVDQU Y0, off(DI);     \
	VMOVDQU Y1, off+32(DI);  \
	VMOVDQU Y2, off+64(DI);  \
	VMOVDQU Y3, off+96(DI);  \
	VMOVDQU Y4, off+128(DI); \
	VMOVDQU Y5, off+160(DI); \
	VMOVDQU Y6, off+192(DI); \
	VMOVDQU Y7, off+224(DI)

#define LOAD(off) \
	VMOVDQU off(DI), Y0;     \
	VMOVDQU off+32(DI), Y1;  \
	VMOVDQU off+64(DI), Y2;  \
	VMOVDQU off+96(DI), Y3;  \
	VMOVDQU off+128(DI), Y4; \
	VMOVDQU off+160(DI), Y5; \
	VMOVDQU off+192(DI), Y6; \
	VMOVDQU off+224(DI), Y7

#define ENTRY \
	MOVLQSX      (DX)(AX*4), R9;  \
	MOVLQSX      4(DX)(AX*4), R11; \
	VPBROADCASTD 8(DX)(AX*4), Y8

TEXT ·dotsInt8AVX2(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ tiles_base+24(FP), SI
	MOVQ tileBytes+48(FP), BX
	MOVQ query_base+56(FP), DX
	MOVQ query_len+64(FP), R8
	SHRQ $7, CX // tiles of 128 rows

tile:
	TESTQ CX, CX
	JEQ   done
	LEAQ  (SI)(BX*2), R10
	XORQ  R12, R12 // the block's first entry

block:
	// Up to four entries, R12 to R13, over rows 0-63, then 64-127.
	LEAQ  12(R12), R13
	CMPQ  R13, R8
	CMOVQGT R8, R13
	TESTQ R12, R12
	JNE   firstLoad
	ZERO
	JMP   firstGo

firstLoad:
	LOAD(0)

firstGo:
	MOVQ R12, AX

first:
	CMPQ       AX, R13
	JGE        firstDone
	ENTRY
	PREFETCHT0 (R10)(R9*1)
	PREFETCHT0 64(R10)(R9*1)
	PREFETCHT0 (R10)(R11*1)
	PREFETCHT0 64(R10)(R11*1)
	ADDQ       SI, R9
	ADDQ       SI, R11
	HALF
	ADDQ       $3, AX
	JMP        first

firstDone:
	STORE(0)
	TESTQ R12, R12
	JNE   secondLoad
	ZERO
	JMP   secondGo

secondLoad:
	LOAD(256)

secondGo:
	MOVQ R12, AX

second:
	CMPQ AX, R13
	JGE  secondDone
	ENTRY
	LEAQ 64(SI)(R9*1), R9
	LEAQ 64(SI)(R11*1), R11
	HALF
	ADDQ $3, AX
	JMP  second

secondDone:
	STORE(256)
	MOVQ R13, R12
	CMPQ R12, R8
	JLT  block
	ADDQ $512, DI
	ADDQ BX, SI
	DECQ CX
	JMP  tile

done:
	VZEROUPPER
	RET
