!!NVfp4.0
# options: push-constants=local
# program.local[0..15] is 256 bytes; the desktop default has 128 bytes of
# push constants.
PARAM p[] = { program.local[0..15] };
INT TEMP i;
FLR.S i, fragment.texcoord[0];
MOV result.color, p[i.x];
END
