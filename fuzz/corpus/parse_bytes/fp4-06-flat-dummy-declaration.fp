!!NVfp4.0
# source: NV_fragment_program4.txt:739
TEMP R0, R1;
FLAT ATTRIB tc02[3] = { fragment.texcoord[0..2] };
MOV R0, fragment.texcoord[1];
MOV R1, fragment.texcoord[3];
END
