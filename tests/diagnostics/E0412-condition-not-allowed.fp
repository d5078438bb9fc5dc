!!NVfp4.0
REP (GT.x);
BRK;
ENDREP;
MOV result.color, fragment.color;
END
