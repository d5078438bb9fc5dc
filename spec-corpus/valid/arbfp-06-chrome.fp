!!ARBfp1.0
# source: ARB_fragment_program.txt:4794

########################
# Input Textures:
#-----------------------
# Texture 0 contains the default 2D texture used for general mapping
# Texture 2 contains a 1D pointlight falloff map
# Texture 3 contains a 2D map for calculating specular lighting
# Texture 4 contains normalizer cube map
#
# Input Texture Coordinates:
#-----------------------
# TexCoord1 contains the calculated normal
# TexCoord2 contains the light to vertex vector
# TexCoord3 contains the half-vector in tangent space
# TexCoord4 contains the light vector in tangent space
# TexCoord5 contains the eye vector in tangent space
########################

TEMP     NdotH, lV, L;

ALIAS    diffuse  = L;
PARAM       half  = { 0.5, 0.5, 0.5, 0.5 };
ATTRIB   norm_tc  = fragment.texcoord[1];
ATTRIB     lv_tc  = fragment.texcoord[2];
ATTRIB   half_tc  = fragment.texcoord[3];
ATTRIB  light_tc  = fragment.texcoord[4];
ATTRIB    eye_tc  = fragment.texcoord[5];
OUTPUT      oCol  = result.color;

TEX     L, light_tc, texture[4], CUBE; # Sample cube map normalizer

# Calculate diffuse lighting (N.L)
SUB     L, L, half;              # Bias L and then multiply by 2
ADD     L, L, L;
DP3     diffuse, norm_tc, L;     # N.L

# Calculate specular lighting component { (N.H), |H|^2 }
DP3     NdotH.x, norm_tc, half_tc;
DP3     NdotH.y, half_tc, half_tc;

DP3     lV.x, lv_tc, lv_tc;     # lV = (|light to vertex|)^2


#############
# Pass 2
#############

TEMP     base, specular;
ALIAS    atten  = lV;

TEX      base,     eye_tc, texture[0], 2D; # sample enviroment map using eye vector
TEX      atten,    lV,     texture[2], 1D; # Sample attenuation map
TEX      specular, NdotH,  texture[3], 2D; # Sample specular NHHH map= (N.H)^256

# specular = (N.H)^256 * (N.L) 
# this ensures a pixel is only lit if facing the light (since the specular
# exponent makes negative N.H positive we must do this)
MUL      specular, specular, diffuse;

# specular = specular * environment map
MUL      specular, base, specular;

# diffuse = diffuse * environment map
MUL      diffuse, base, diffuse;

# outColor = (specular * environment map) + (diffuse * environment map)
ADD      base, specular, diffuse;

# Apply point light attenutaion
MUL      oCol, base, atten.r;

END
