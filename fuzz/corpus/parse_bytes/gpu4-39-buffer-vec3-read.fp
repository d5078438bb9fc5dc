!!NVfp4.0
# source: NV_gpu_program4.txt:6155
# fixed: the spec declares "PARAM buffer[] = { program.buffer[0] };"; parameter buffer
#        variables must be declared with BUFFER/BUFFER4 (section 2.X.3.6)
#        the spec writes "buffer[index+N]"; <arrayMemRel> requires a scalar operand ("index.x")
#        elided "..." line turned into a comment
BUFFER buffer[] = { program.buffer[0] };
INT TEMP index;
TEMP R0;
# ...
MUL.S index, index, 3;          # to read "vec3" #X, compute 3*X
MOV R0.x, buffer[index.x+0];
MOV R0.y, buffer[index.x+1];
MOV R0.z, buffer[index.x+2];
END
