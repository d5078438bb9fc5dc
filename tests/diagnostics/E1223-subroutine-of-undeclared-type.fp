!!NVfp5.0
SUBROUTINETYPE Shade { red };
SUBROUTINE Shader pick = program.subroutine[0];
TEMP c;
red SUBROUTINENUM(0):
  MOV c, {1, 0, 0, 1};
  RET;
main:
  MOV result.color, c;
END
