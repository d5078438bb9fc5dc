!!NVfp5.0
SUBROUTINETYPE Shade { red, green };
SUBROUTINE Shade pick = program.subroutine[0];
TEMP c;
red SUBROUTINENUM(3):
  MOV c, {1, 0, 0, 1};
  RET;
green SUBROUTINENUM(3):
  MOV c, {0, 1, 0, 1};
  RET;
main:
  CALI pick;
  MOV result.color, c;
END
