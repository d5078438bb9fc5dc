!!ARBfp1.0
# source: ARB_fragment_program_shadow.txt:225
# note: the spec's example stops before writing a result; the MOV and END were added
OPTION ARB_fragment_program_shadow;
# A simple example of shadow map (R<= Dt)
#
# MUST make sure that the 2D texture bound to texture unit 0:
#    texture format of DEPTH_COMPONENT and a
#    TEXTURE_COMPARE_MODE of COMPARE_R_TO_TEXTURE
# Otherwise, the Result is undefined.
#
# Remember also that to get R <= Dt to set:
#    TEXTURE_COMPARE_FUNC of LEQUAL
#
# A single compare equivalent to the above example will result if:
#    TEXTURE_MAG_FILTER is NEAREST
#    TEXTURE_MIN_FILTER is NEAREST or NEAREST_MIPMAP_NEAREST
# Otherwise, percent closer filtering may be applied.
#
TEMP Result;
TEX Result, fragment.texcoord[0], texture[0], SHADOW2D;
MOV result.color, Result;
END
