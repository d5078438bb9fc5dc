!!NVcp5.0
# NV_bindless_texture's image handles (docs/interface.md, "Bindless
# images"): every access through handle(h.x) on a 2D U32 image is one
# array of 8 storage images at binding 152, each element accessed with a
# constant index under the condition that the handle is its index.
OPTION NV_bindless_texture;
GROUP_SIZE 4;
UINT TEMP h, r, a;
MOV.U h, invocation.localid;
LOADIM.U32 r, {1, 0, 0, 0}, handle(h.x), 2D;
ATOMIM.ADD.U32 a.x, r.x, {0, 0, 0, 0}, handle(h.x), 2D;
STOREIM.U32 handle(h.x), a, {1, 1, 0, 0}, 2D;
END
