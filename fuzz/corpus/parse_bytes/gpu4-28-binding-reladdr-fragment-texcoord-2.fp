!!NVfp4.0
# source: NV_gpu_program4.txt:5688
# invalid: relative addressing mechanisms of NV_vertex_program3/NV_fragment_program2 are NOT supported; declared arrays are the only way to get relative addressing (issue 10)
# expect: E0204
INT TEMP A0;
TEMP R0;
MOV R0, fragment.texcoord[A0.x];        # fragment -- inside LOOP
END
