!!NVfp5.0
# source: NV_gpu_program5.txt:3134
# fixed: SNE takes two operands; the spec's line gives one (`SNE.S.CC cc.x, condition.x;`), so `, 0` is added
# note: the "fast path" and "slow path" comments get one MOV each
INT TEMP cc, condition;
MOV.S condition, fragment.attrib[0];
SNE.S.CC cc.x, condition.x, 0;
IF NE.x;
  # do fast path
  MOV result.color, 1;
ELSE;
  # do slow path
  MOV result.color, 0;
ENDIF;
END
