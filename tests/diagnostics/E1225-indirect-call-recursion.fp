!!NVfp5.0
SUBROUTINETYPE Step { again, stop };
SUBROUTINE Step next = program.subroutine[0];
TEMP c;
again SUBROUTINENUM(0):
  ADD c, c, {0.25, 0, 0, 0};
  CALI next;
  RET;
stop SUBROUTINENUM(1):
  RET;
main:
  MOV c, {0, 0, 0, 1};
  CALI next;
  MOV result.color, c;
END
