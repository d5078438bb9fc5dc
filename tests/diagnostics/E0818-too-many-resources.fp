!!NVfp4.0
# options: device-limits={"maxPerStageResources":3}
# program.local, two texture units and the colour attachment: 4 resources.
TEMP t;
TEX t, fragment.texcoord[0], texture[0], 2D;
TEX t, t, texture[1], 2D;
MUL result.color, t, program.local[0];
END
