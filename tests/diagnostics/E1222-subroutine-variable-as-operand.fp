!!NVfp5.0
SUBROUTINETYPE Shade { red };
SUBROUTINE Shade pick = program.subroutine[0];
TEMP c;
red SUBROUTINENUM(0):
  MOV c, {1, 0, 0, 1};
  RET;
main:
  CALI pick;
  MOV.U c, pick;
  MOV result.color, c;
END
