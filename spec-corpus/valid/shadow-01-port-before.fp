!!ARBfp1.0
# source: ARB_fragment_program_shadow.txt:211
# note: the spec's example stops before writing a result; the MOV and END were added
# A simple example of shadow map (R <= Dt)
#
# SHOULD make sure that the 2D texture bound to texture unit 0:
#    texture format of DEPTH_COMPONENT (for highest quality comparison)
#    TEXTURE_MAG_FILTER is NEAREST
#    TEXTURE_MIN_FILTER is NEAREST or NEAREST_MIPMAP_NEAREST
# Assumes DEPTH_TEXTURE_MODE is LUMINANCE or INTENSITY
#
TEMP Result;
ALIAS Dt = Result;
TEX Dt, fragment.texcoord[0], texture[0], 2D;
MOV result.color, Result;
END
