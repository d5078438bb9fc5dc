# SYNTAX TEST "source.nvasm" "geometry program: primitive declarations, per-vertex bindings, EMIT"
!!NVgp4.0
# <--------- keyword.control.directive.header.nvasm
PRIMITIVE_IN TRIANGLES;
# <------------ storage.type.declaration.nvasm
#            ^^^^^^^^^ constant.language.primitive.nvasm
PRIMITIVE_OUT TRIANGLE_STRIP;
#             ^^^^^^^^^^^^^^ constant.language.primitive.nvasm
VERTICES_OUT 3;
# <------------ storage.type.declaration.nvasm
#            ^ constant.numeric.integer.nvasm
MOV result.position, vertex[1].position;
#                    ^^^^^^ variable.language.binding.nvasm
#                          ^^^^^^^^^^^^ support.variable.binding.nvasm
EMIT;
# <---- keyword.control.flow.nvasm
ENDPRIM;
# <------- keyword.control.flow.nvasm
END
