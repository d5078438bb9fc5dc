!!NVfp4.0
FLAT CENTROID ATTRIB tc = fragment.texcoord[0];
MOV result.color, tc;
END
