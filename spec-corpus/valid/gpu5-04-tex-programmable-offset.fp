!!NVfp5.0
# source: NV_gpu_program5.txt:2579
# fixed: `result` is a reserved word (NV_gpu_program4 2.X.2), so the snippet's variable is named `res`
# fixed: the spec's line omits the texture target (`TEX result, coord, texture[0], offset(offxy);`);
#   the target of the constant-offset form just above it (2D) is added
# vulkan: E1137 (Vulkan allows an Offset that is not a constant only on gathers; docs/semantics.md)
TEMP res, coord;
MOV coord, fragment.texcoord[0];
TEMP offxy;
MOV offxy, {-1, -1};
TEX res, coord, texture[0], 2D, offset(offxy);
MOV result.color, res;
END
