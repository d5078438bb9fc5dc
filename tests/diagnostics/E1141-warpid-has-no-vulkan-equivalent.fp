!!NVfp5.0
OPTION NV_shader_thread_group;
UINT OUTPUT o = result.color;
MOV.U o.x, fragment.warpid.x;
END
