!!NVfp4.0
# source: NV_gpu_program4.txt:5937
# fixed: elided "..." line turned into a comment
TEMP R0, R1;
MOV.U.CC R0, R1;            # move R1 to R0, set condition code
IF NE;                      # test if the result is "!=0", a very
  # ...                     #   large value might fail "GT"!
ENDIF;
END
