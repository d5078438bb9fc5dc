!!NVfp4.0
# source: NV_gpu_program4.txt:2595
# note: the spec writes the MOVC destination as "CC"; NV_gpu_program4 has no dummy
#       condition-code destination and "CC" is not a reserved word, so it is declared
#       here as an ordinary temporary (MOVC still updates CC0 from R0)
TEMP CC, R0, R1, R2;
MOVC CC, R0;
IF GT.x;
  MOV R0, R1;     # executes if R0.x > 0
ELSE;
  MOV R0, R2;     # executes if R0.x <= 0
ENDIF;
END
