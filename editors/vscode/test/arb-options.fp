# SYNTAX TEST "source.nvasm" "ARB_fragment_program with NV_fragment_program2"
!!ARBfp1.0
OPTION NV_fragment_program2;
SHORT TEMP h;
# <----- storage.modifier.nvasm
#     ^^^^ storage.type.declaration.nvasm
LOOP {3, 0, 1};
# <---- keyword.control.flow.nvasm
ADDHC_SAT h, h, fragment.texcoord[A0.x];
# <--- keyword.other.opcode.nvasm
#  ^^^^^^ storage.modifier.suffix.nvasm
MULX h, h, 2;
#  ^ storage.modifier.suffix.nvasm
ENDLOOP;
# <------- keyword.control.flow.nvasm
MOV result.color, h;
END
