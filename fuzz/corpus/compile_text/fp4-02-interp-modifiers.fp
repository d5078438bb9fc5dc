!!NVfp4.0
# source: NV_fragment_program4.txt:678
FLAT ATTRIB texcoords[4] = { fragment.texcoord[0..3] };
CENTROID ATTRIB texcoord4 = fragment.texcoord[4];
CENTROID NOPERSPECTIVE ATTRIB
  attribs[3] = { fragment.attrib[0..2] };
END
