!!ARBfp1.0
OPTION ARB_precision_hint_fastest;
# A Doom 3-style interaction fragment program (written for nvp4c's tests):
# a bumped normal from the normal map, diffuse and Blinn specular terms,
# modulated by the light's projected image and falloff and its colour.
#   texture[0] normal map, texture[1] diffuse map, texture[2] specular map,
#   texture[3] light falloff, texture[4] light projection
#   program.local[0] light colour, program.local[1] specular colour
#   (w: the specular exponent)
PARAM lightColor    = program.local[0];
PARAM specularColor = program.local[1];
TEMP  n, l, v, h, t, light, diffuse, specular, color;

# normalised light and view vectors, and the half vector
DP3 l.w, fragment.texcoord[3], fragment.texcoord[3];
RSQ l.w, l.w;
MUL l.xyz, fragment.texcoord[3], l.w;
DP3 v.w, fragment.texcoord[4], fragment.texcoord[4];
RSQ v.w, v.w;
MUL v.xyz, fragment.texcoord[4], v.w;
ADD h.xyz, l, v;
DP3 h.w, h, h;
RSQ h.w, h.w;
MUL h.xyz, h, h.w;

# the normal map holds (n + 1) / 2
TEX n, fragment.texcoord[0], texture[0], 2D;
MAD n.xyz, n, 2, -1;

# diffuse: N.L times the diffuse map
DP3_SAT t.x, n, l;
TEX diffuse, fragment.texcoord[0], texture[1], 2D;
MUL diffuse, diffuse, t.x;

# specular: (N.H)^exponent times the specular map and colour
DP3_SAT t.y, n, h;
POW t.y, t.y, specularColor.w;
TEX specular, fragment.texcoord[0], texture[2], 2D;
MUL specular, specular, t.y;
MUL specular, specular, specularColor;

# the light: its projected image times its falloff times its colour
TXP light, fragment.texcoord[1], texture[4], 2D;
TEX t, fragment.texcoord[2], texture[3], 2D;
MUL light, light, t;
MUL light, light, lightColor;

ADD color, diffuse, specular;
MUL result.color.xyz, color, light;
MOV result.color.w, 1;
END
