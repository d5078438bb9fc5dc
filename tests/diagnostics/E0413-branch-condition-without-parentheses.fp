!!NVfp4.0
REP;
BRK GT.x;
ENDREP;
MOV result.color, fragment.color;
END
