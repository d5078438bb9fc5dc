!!NVfp4.0
FLAT ATTRIB a = fragment.texcoord[0];
CENTROID ATTRIB b = fragment.texcoord[0];
ADD result.color, a, b;
END
