!!NVfp4.0
# Render-time benchmark (scripts/bench-render.sh): per-pixel lighting of a
# textured, procedurally bumped plane under up to three point lights.
# benches/render/shade.frag is the same shader in GLSL, with the same
# interface (docs/interface.md): set 2, program.env at binding 0,
# program.local at binding 1, texture[0] at binding 32,
# fragment.texcoord[0] at Location 5, result.color at Location 0.
#
# program.local[0]     uv tiling (x, y), bump frequency (z), bump height (w)
# program.local[1]     shininess (x), ambient (y), specular strength (z),
#                      number of lights (w, a float count)
# program.local[2..4]  light positions (xyz), 1 / radius² (w)
# program.local[5..7]  light colours (rgb)
# program.env[0]       eye position (xyz), fog density (w)
# program.env[1]       fog colour (rgb), gamma exponent (w)
# texture[0]           albedo, 2D
PARAM tile = program.local[0];
PARAM material = program.local[1];
PARAM lightPos[] = { program.local[2..4] };
PARAM lightColor[] = { program.local[5..7] };
PARAM eye = program.env[0];
PARAM fog = program.env[1];
INT TEMP i;
TEMP uv, n, p, v, l, h, t, s, diffuse, specular, albedo, color;

# The surface: tiled texture coordinates, a sine bump for the normal,
# the point on the z = 0 plane in [-1, 1]².
MUL uv.xy, fragment.texcoord[0], tile;
TEX albedo, uv, texture[0], 2D;
MUL t.xy, uv, tile.z;
SIN s.x, t.x;
COS s.y, t.y;
MUL n.xy, s, -tile.w;
MOV n.z, 1;
DP3 n.w, n, n;
RSQ n.w, n.w;
MUL n.xyz, n, n.w;
MAD p.xyz, fragment.texcoord[0], {2, 2, 0, 0}, {-1, -1, 0, 0};

# The direction to the eye.
SUB v.xyz, eye, p;
DP3 v.w, v, v;
RSQ v.w, v.w;
MUL v.xyz, v, v.w;

# Blinn-Phong over the lights, each attenuated by distance; lights
# behind the surface skip the specular term.
MOV diffuse, {0, 0, 0, 0};
MOV specular, {0, 0, 0, 0};
MOV.S i.x, 0;
REP material.w;
  SUB l.xyz, lightPos[i.x], p;
  DP3 l.w, l, l;
  RSQ t.x, l.w;
  MUL l.xyz, l, t.x;
  MAD.SAT t.y, -l.w, lightPos[i.x].w, 1;
  DP3.CC t.z, n, l;
  IF GT.z;
    MUL s.xyz, lightColor[i.x], t.y;
    MAD diffuse.xyz, s, t.z, diffuse;
    ADD h.xyz, l, v;
    DP3 h.w, h, h;
    RSQ h.w, h.w;
    MUL h.xyz, h, h.w;
    DP3.SAT t.w, n, h;
    POW t.w, t.w, material.x;
    MAD specular.xyz, s, t.w, specular;
  ENDIF;
  ADD.S i.x, i.x, 1;
ENDREP;

# Albedo × (ambient + diffuse) + specular.
ADD t.xyz, diffuse, material.y;
MUL color.xyz, albedo, t;
MAD color.xyz, specular, material.z, color;

# Fog by the distance from the centre of the target (fragment.position),
# then gamma.
MAD t.xy, fragment.position, {0.001953125, 0.001953125}, {-1, -1};
DP2 t.z, t, t;
MUL t.z, t.z, -eye.w;
EX2 t.z, t.z;
LRP color.xyz, t.z, color, fog;
POW result.color.x, color.x, fog.w;
POW result.color.y, color.y, fog.w;
POW result.color.z, color.z, fog.w;
MOV result.color.w, albedo.w;
END
