!!NVfp5.0
# source: NV_gpu_program5.txt:3148
# below vulkan1.1: E1140 (thread-group votes are subgroup operations, SPIR-V 1.3; docs/interface.md, "Thread groups")
INT TEMP cc, condition;
MOV.S condition, fragment.attrib[0];
# Condition code matches NE if and only if condition.x is non-zero 
# for all threads.
TGALL.S.CC cc.x, condition.x;
IF NE.x;
  # do fast path
  MOV result.color, 1;
ELSE;
  # do slow path
  MOV result.color, 0;
ENDIF;
END
