!!NVfp4.0
# source: NV_gpu_program4.txt:2606
TEMP R0;
square:             # subroutine to compute R0^2
  MUL R0, R0, R0;
  RET;
main:
  MOV R0, 9.0;
  CAL square;       # compute 9.0^2 in R0
END
