!!NVfp5.0
SUBROUTINETYPE Shade { };
SUBROUTINE Shade pick = program.subroutine[0];
TEMP c;
main:
  MOV c, {1, 0, 0, 1};
  CALI pick;
  MOV result.color, c;
END
