!!ARBfp1.0
OPTION NV_fragment_program2;
TEMP n, sum;
MOV n, 3;
MOV sum, 0;
REP n.x;
ADD sum, sum, 0.25;
ENDREP;
MOV result.color, sum;
END
