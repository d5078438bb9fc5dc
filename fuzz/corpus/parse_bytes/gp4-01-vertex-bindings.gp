!!NVgp4.0
# source: NV_geometry_program4.txt:719
# fixed: elided "..." line turned into a comment
# note: lines 719-730; the ILLEGAL line 731 of the same block is gp4-02
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;

TEMP R0;
ATTRIB pos = vertex.position;
ATTRIB pos2 = vertex[2].position;
ATTRIB texcoords[] = { vertex.texcoord[0..3] };
ATTRIB tcoords1[4] = { vertex[1].texcoord[1..4] };
INT TEMP A0;
# ...
MOV R0, pos[1];                   # position of vertex 1
MOV R0, vertex[1].position;       # position of vertex 1
MOV R0, pos2;                     # position of vertex 2
MOV R0, texcoords[A0.x][1];       # texcoord 1 of vertex A0.x
MOV R0, texcoords[A0.x][A0.y];    # texcoord A0.y of vertex A0.x
MOV R0, tcoords1[2];              # texcoord 3 of vertex 1
END
