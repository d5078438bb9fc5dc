!!NVfp4.0
ATTRIB a = fragment.texcoord[0].xy;
MOV result.color, a;
END
