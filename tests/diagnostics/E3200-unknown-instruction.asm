ps_2_0
// `movv` is no instruction: the assembler stops at this line.
movv oC0, c0
