!!NVfp4.0
# source: NV_gpu_program4.txt:6094
# fixed: the spec writes "RET NE.x;"; the grammar requires "RET (NE.x);"
#        the spec writes "stack[sp]"; <arrayMemRel> requires a scalar operand ("stack[sp.x]")
#        the spec ends with "RET" without the terminating ";"
#        elided "..." line turned into a comment
TEMP R0;
TEMP stack[256];                # 256 4-component vectors
INT TEMP sp;                    # sp.x == stack pointer
INT TEMP cc;                    # condition code results

function:
  SGE.S.CC cc.x, sp.x, 256;     # compute stackPointer >= 256
  RET (NE.x);                   # return if TRUE
  MOV stack[sp.x], R0;          # push R0 onto the stack
  ADD.S sp.x, sp.x, 1;
  # ...
  SUB.S sp.x, sp.x, 1;          # pop R0 off the stack
  MOV R0, stack[sp.x];
  RET;
END
