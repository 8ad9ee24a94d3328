#include "textflag.h"

// func dotsF32AVX2(dst []float32, rows []float32, q []float32)
TEXT ·dotsF32AVX2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ rows_base+24(FP), SI
	MOVQ q_base+48(FP), DX
	MOVQ q_len+56(FP), BX
	SHLQ $2, BX // row stride in bytes

four:
	CMPQ   CX, $4
	JLT    one
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	LEAQ   (SI)(BX*1), R8
	LEAQ   (R8)(BX*1), R9
	LEAQ   (R9)(BX*1), R10
	LEAQ   (SI)(BX*8), R11 // two groups of four rows ahead
	XORQ   AX, AX

fourLoop:
	// Four cache lines of the group two ahead per 16 floats of each
	// row: its 4 x stride bytes over this group's steps.
	PREFETCHT0  (R11)(AX*4)
	PREFETCHT0  64(R11)(AX*4)
	PREFETCHT0  128(R11)(AX*4)
	PREFETCHT0  192(R11)(AX*4)
	VMOVUPS     (DX)(AX*1), Y8
	VMOVUPS     32(DX)(AX*1), Y9
	VFMADD231PS (SI)(AX*1), Y8, Y0
	VFMADD231PS 32(SI)(AX*1), Y9, Y1
	VFMADD231PS (R8)(AX*1), Y8, Y2
	VFMADD231PS 32(R8)(AX*1), Y9, Y3
	VFMADD231PS (R9)(AX*1), Y8, Y4
	VFMADD231PS 32(R9)(AX*1), Y9, Y5
	VFMADD231PS (R10)(AX*1), Y8, Y6
	VFMADD231PS 32(R10)(AX*1), Y9, Y7
	ADDQ        $64, AX
	CMPQ        AX, BX
	JLT         fourLoop

	// Lane i of X0 becomes the sum of row i's accumulators.
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y5, Y4, Y4
	VADDPS       Y7, Y6, Y6
	VHADDPS      Y2, Y0, Y0
	VHADDPS      Y6, Y4, Y4
	VHADDPS      Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVUPS      X0, (DI)
	ADDQ         $16, DI
	LEAQ         (R10)(BX*1), SI
	SUBQ         $4, CX
	JMP          four

one:
	TESTQ  CX, CX
	JEQ    done
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	XORQ   AX, AX

oneLoop:
	VMOVUPS     (DX)(AX*1), Y8
	VMOVUPS     32(DX)(AX*1), Y9
	VFMADD231PS (SI)(AX*1), Y8, Y0
	VFMADD231PS 32(SI)(AX*1), Y9, Y1
	ADDQ        $64, AX
	CMPQ        AX, BX
	JLT         oneLoop

	// The four-row path's order of additions, so that a row scores the
	// same bits whichever path takes it: lanes paired within each half,
	// the pairs summed, then the halves ((a0+a1)+(a2+a3)) +
	// ((a4+a5)+(a6+a7)) (TestF32KernelRowAlone).
	VADDPS       Y1, Y0, Y0
	VHADDPS      Y0, Y0, Y0
	VHADDPS      Y0, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	MOVSS        X0, (DI)
	ADDQ         $4, DI
	ADDQ         BX, SI
	DECQ         CX
	JMP          one

done:
	VZEROUPPER
	RET
