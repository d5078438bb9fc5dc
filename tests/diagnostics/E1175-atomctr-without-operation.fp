!!NVfp5.0
OPTION NV_shader_atomic_counters;
COUNTER c = program.counter[0][0];
UINT TEMP t;
ATOMCTR.U t.x, c;
MOV.U result.color, t;
END
