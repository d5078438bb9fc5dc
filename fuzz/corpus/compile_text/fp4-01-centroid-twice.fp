!!NVfp4.0
# source: NV_fragment_program4.txt:215
# invalid: the same interpolation modifier may not be specified more than once in a single declaration (e.g., "CENTROID CENTROID ATTRIB")
# expect: E0314
# note: the spec quotes only "CENTROID CENTROID ATTRIB"; the variable name and binding were added
CENTROID CENTROID ATTRIB tc = fragment.texcoord[0];
END
