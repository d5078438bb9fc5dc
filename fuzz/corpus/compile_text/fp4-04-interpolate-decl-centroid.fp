!!NVfp4.0
# source: NV_fragment_program4.txt:692
# invalid: INTERPOLATE declarations were a design option considered and not adopted; interpolation is specified with modifiers on ATTRIB declarations (issue 1)
# expect: E0400
INTERPOLATE fragment.texcoord[4], CENTROID;
END
