!!NVfp4.0
CENTROID ATTRIB pos = fragment.position;
MOV result.color, pos;
END
