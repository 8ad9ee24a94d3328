#include "textflag.h"

// func dotsInt8AVX2(dst []int32, codes []int8, q []int16)
TEXT ·dotsInt8AVX2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ codes_base+24(FP), SI
	MOVQ q_base+48(FP), DX
	MOVQ q_len+56(FP), BX

four:
	CMPQ CX, $4
	JLT  one
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	LEAQ (SI)(BX*8), R11 // two groups of four rows ahead
	XORQ AX, AX

fourLoop:
	// One cache line of the group two ahead per 16 codes of each row:
	// its 4 x stride bytes are fetched over this group's stride/16
	// steps, 3 KiB ahead for stride 384.
	PREFETCHT0 (R11)(AX*4)
	VMOVDQU   (DX)(AX*2), Y4
	VPMOVSXBW (SI)(AX*1), Y5
	VPMOVSXBW (R8)(AX*1), Y6
	VPMOVSXBW (R9)(AX*1), Y7
	VPMOVSXBW (R10)(AX*1), Y8
	VPMADDWD  Y4, Y5, Y5
	VPMADDWD  Y4, Y6, Y6
	VPMADDWD  Y4, Y7, Y7
	VPMADDWD  Y4, Y8, Y8
	VPADDD    Y5, Y0, Y0
	VPADDD    Y6, Y1, Y1
	VPADDD    Y7, Y2, Y2
	VPADDD    Y8, Y3, Y3
	ADDQ      $16, AX
	CMPQ      AX, BX
	JLT       fourLoop

	// Horizontal sums: lane i of X0 becomes the sum of Yi.
	VPHADDD      Y1, Y0, Y0
	VPHADDD      Y3, Y2, Y2
	VPHADDD      Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VMOVDQU      X0, (DI)
	ADDQ         $16, DI
	LEAQ         (R10)(BX*1), SI
	SUBQ         $4, CX
	JMP          four

one:
	TESTQ CX, CX
	JEQ   done
	VPXOR Y0, Y0, Y0
	XORQ  AX, AX

oneLoop:
	VMOVDQU   (DX)(AX*2), Y4
	VPMOVSXBW (SI)(AX*1), Y5
	VPMADDWD  Y4, Y5, Y5
	VPADDD    Y5, Y0, Y0
	ADDQ      $16, AX
	CMPQ      AX, BX
	JLT       oneLoop

	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VPHADDD      X0, X0, X0
	VPHADDD      X0, X0, X0
	MOVL         X0, (DI)
	ADDQ         $4, DI
	ADDQ         BX, SI
	DECQ         CX
	JMP          one

done:
	VZEROUPPER
	RET
