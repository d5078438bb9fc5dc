!!NVfp5.0
SUBROUTINETYPE Shade { red, green };
SUBROUTINE Shade pick = program.subroutine[0];
TEMP c;
red SUBROUTINENUM(0):
  MOV c, {1, 0, 0, 1};
  RET;
green:
  MOV c, {0, 1, 0, 1};
  RET;
main:
  CALI pick;
  MOV result.color, c;
END
