!!NVfp4.0
# source: NV_gpu_program4.txt:5771
# fixed: the spec writes "BRK NE.x;"; the grammar (<optBranchCond> ::= <ccMask> ::= "(" <ccTest> ")")
#        requires the parentheses
#        elided "..." lines turned into comments
TEMP value;
TEMP cc;                        # dummy variable
REP;
  SLT.CC cc.x, value.x, 7.0;    # compare value.x to 7.0, set CC0
  BRK (NE.x);                   # break out if not true
  # ...
  # ...                         # presumably update value!
  # ...
ENDREP;
END
