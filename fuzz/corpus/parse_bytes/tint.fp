!!NVfp4.0
# cgc version 2.2.0017, build date Jan 29 2010
#profile gp4fp
#var float4 tint :  : c[0] : 1 : 1
#var float4 texCoord : $vin.TEXCOORD0 : TEX0 : 0 : 1
PARAM c[2] = { program.local[0..1] };
ATTRIB fragment_texcoord[] = { fragment.texcoord[0..0] };
TEMP R0;
TEMP RC, HC;
MUL.F R0, fragment.texcoord[0], c[0];
MAD.F R0.xyz, R0, {2, 0.5}.x, -c[1];
DP3.F.SAT R0.w, R0, {0.25, 0.5, 0.25};
ADDR_SAT R0.x, R0.x, {0.125}.x;
MOV.F result.color, R0;
END
# 5 instructions, 1 R-regs
