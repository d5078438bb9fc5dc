!!NVfp4.0
# <- keyword.directive
OPTION ARB_fog_linear;
# <- keyword
#      ^ constant.builtin
PARAM c[2] = { program.local[0..1] };
# <- keyword
#     ^ variable
#              ^ variable.builtin
#                      ^ property
#                            ^ number
INT TEMP R0;
# <- type.qualifier
#   ^ keyword
MAD.F.SAT R0, fragment.color, c[0], -c[1];
# <- function.builtin
#     ^ attribute
#             ^ variable.builtin
TEX R0, R0, texture[0], 2D;
# <- function.builtin
#                       ^ type.builtin
TEX R0, R0, texture[1], SHADOWCUBE;
#                       ^ type.builtin
CAL sub;
# <- function.builtin
#   ^ label
sub:
# <- label
RET;
END
# <- keyword
