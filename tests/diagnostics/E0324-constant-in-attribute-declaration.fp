!!NVfp4.0
ATTRIB a = 1.0;
MOV result.color, a;
END
