!!NVgp4.0
# source: NV_geometry_program4.txt:731
# invalid: for bindings used directly in instructions, "[m]" is required and must be an integer constant vertex number
# expect: E0204
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;

TEMP R0;
INT TEMP A0;
MOV R0, vertex[A0.x].texcoord[1]; # ILLEGAL allowed -- vertex number
                                  #    must be constant here.
END
