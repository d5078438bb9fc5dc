!!NVfp5.0
# source: NV_gpu_program5.txt:1065
# invalid: sampling through a texture array variable counts as using every unit it binds, so 2D through textures[] and 3D on texture[1] use two targets on unit 1
# expect: E0444
TEMP out, coord;
TEXTURE textures[] = { texture[0..3] };
TEX out, coord, textures[2], 2D;     # acts as if all textures are used
TEX out, coord, texture[1], 3D;
END
