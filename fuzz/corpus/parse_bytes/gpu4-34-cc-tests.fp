!!NVfp4.0
# source: NV_gpu_program4.txt:5898
# fixed: the spec writes "BRK EQ1.xyzx;"; the grammar (<optBranchCond> ::= <ccMask> ::= "(" <ccTest> ")")
#        requires the parentheses
#        elided "..." lines turned into comments
TEMP R0, R1, R2, R3;
MOV R0 (GT.x), R1;          # move R1 to R0 only if the x component of
                            #   CC0 indicates a result of ">0"
MOV R2 (NE1), R3;           # component-wise move of R3 to R2 if the
                            #   corresponding component of CC1
                            #   indicates a result of "!=0"
IF LE0.xyxy;                # execute the block of code if the x or
  # ...                     #   y components of CC0 indicate a result
ENDIF;                      #   of "<=0"
REP;
  # ...
  BRK (EQ1.xyzx);           # break out of loop if the x, y, or z
ENDREP;                     #   components of CC1 indicate a result of
                            #   "==0".
END
