!!NVcp5.0
# 5 image units on a device with Vulkan's minimum of 4 storage images per stage.
# options: device-limits={"maxPerStageDescriptorStorageImages":4}
GROUP_SIZE 1;
INT TEMP c;
UINT TEMP r;
MOV.S c, 0;
LOADIM.U32 r, c, image[0], 2D;
LOADIM.U32 r, c, image[1], 2D;
LOADIM.U32 r, c, image[2], 2D;
LOADIM.U32 r, c, image[3], 2D;
LOADIM.U32 r, c, image[4], 2D;
END
