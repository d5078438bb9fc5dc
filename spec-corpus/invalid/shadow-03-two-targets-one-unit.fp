!!ARBfp1.0
# source: ARB_fragment_program_shadow.txt:337
# invalid: a fragment program fails to load if it samples from multiple texture targets on the same texture image unit
# expect: E0444
TEX result.color.rgb, fragment.texcoord[0], texture[0], 2D;
TEX result.color.a,   fragment.texcoord[1], texture[0], 3D;
END
