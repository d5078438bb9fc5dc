!!NVfp4.0
ATTRIB a = program.local[0];
MOV result.color, a;
END
