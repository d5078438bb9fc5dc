!!NVfp4.0
CENTROID CENTROID ATTRIB tc = fragment.texcoord[0];
MOV result.color, tc;
END
