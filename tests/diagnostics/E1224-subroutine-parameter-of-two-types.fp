!!NVfp5.0
SUBROUTINETYPE Shade { red };
SUBROUTINETYPE Blend { red };
SUBROUTINE Shade pick = program.subroutine[0];
SUBROUTINE Blend mix = program.subroutine[0];
TEMP c;
red SUBROUTINENUM(0):
  MOV c, {1, 0, 0, 1};
  RET;
main:
  CALI pick;
  CALI mix;
  MOV result.color, c;
END
