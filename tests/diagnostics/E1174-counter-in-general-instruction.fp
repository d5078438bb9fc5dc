!!NVfp5.0
OPTION NV_shader_atomic_counters;
COUNTER c = program.counter[0][0];
MOV result.color, c;
END
