!!NVfp5.0
OPTION NV_shader_atomic_counters;
COUNTER c = program.counter[4][0];
MOV result.color, 1;
END
