!!NVfp4.0
TEMP R0;
MOV R0, 0;
REP;
ADD R0, R0, 1;
ENDREP;
MOV result.color, R0;
END
