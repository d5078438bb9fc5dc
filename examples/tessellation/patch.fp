!!NVfp5.0
# A Cg-style gp5fp program: the interpolated colour.
#profile gp5fp
#program main
#var float4 color : $vin.TEXCOORD0 : TEX0 : 0 : 1
#var float4 oColor : $vout.COLOR : COL : 1 : 1
OUTPUT result_color0 = result.color;
MOV.F result_color0, fragment.texcoord[0];
END
