!!NVfp4.0
# options: descriptor-set=9
# The desktop default has 8 bound descriptor sets: sets 0 to 7.
MUL result.color, fragment.color, program.local[0];
END
