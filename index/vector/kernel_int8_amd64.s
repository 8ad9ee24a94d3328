#include "textflag.h"

// func dotsInt8AVX2(dst []int32, tiles []int8, tileBytes int, query []int32)
TEXT ·dotsInt8AVX2(SB), NOSPLIT, $0-80
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ tiles_base+24(FP), SI
	MOVQ tileBytes+48(FP), BX
	MOVQ query_base+56(FP), DX
	MOVQ query_len+64(FP), R8
	SHRQ $6, CX // tiles of 64 rows

tile:
	TESTQ CX, CX
	JEQ   done
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	LEAQ  (SI)(BX*2), R10 // the tile two ahead, for prefetching
	XORQ  AX, AX

pair:
	CMPQ AX, R8
	JGE  sum
	// The pair's column: offset query[AX], codes query[AX+1].
	MOVLQSX      (DX)(AX*4), R9
	VPBROADCASTD 4(DX)(AX*4), Y8
	PREFETCHT0   (R10)(R9*1)
	PREFETCHT0   64(R10)(R9*1)
	LEAQ         (SI)(R9*1), R11
	VPMOVSXBW    (R11), Y9
	VPMOVSXBW    16(R11), Y10
	VPMOVSXBW    32(R11), Y11
	VPMOVSXBW    48(R11), Y12
	VPMADDWD     Y8, Y9, Y9
	VPMADDWD     Y8, Y10, Y10
	VPMADDWD     Y8, Y11, Y11
	VPMADDWD     Y8, Y12, Y12
	VPADDD       Y9, Y0, Y0
	VPADDD       Y10, Y1, Y1
	VPADDD       Y11, Y2, Y2
	VPADDD       Y12, Y3, Y3
	VPMOVSXBW    64(R11), Y9
	VPMOVSXBW    80(R11), Y10
	VPMOVSXBW    96(R11), Y11
	VPMOVSXBW    112(R11), Y12
	VPMADDWD     Y8, Y9, Y9
	VPMADDWD     Y8, Y10, Y10
	VPMADDWD     Y8, Y11, Y11
	VPMADDWD     Y8, Y12, Y12
	VPADDD       Y9, Y4, Y4
	VPADDD       Y10, Y5, Y5
	VPADDD       Y11, Y6, Y6
	VPADDD       Y12, Y7, Y7
	ADDQ         $2, AX
	JMP          pair

sum:
	// Row 8j+i's sum is lane i of Yj.
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VMOVDQU Y4, 128(DI)
	VMOVDQU Y5, 160(DI)
	VMOVDQU Y6, 192(DI)
	VMOVDQU Y7, 224(DI)
	ADDQ    $256, DI
	ADDQ    BX, SI
	DECQ    CX
	JMP     tile

done:
	VZEROUPPER
	RET
