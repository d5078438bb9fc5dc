!!NVcp5.0
OPTION NV_bindless_texture;
GROUP_SIZE 1;
INT TEMP c;
UINT TEMP h;
TEMP r;
MOV.S c, 0;
MOV.U h, 1;
LOADIM.U32 r, c, handle(h.x), 2D;
END
