# SYNTAX TEST "source.nvasm" "fragment program: header, opcodes with suffixes and modifiers, bindings, swizzles, texture targets"
!!NVfp4.0
# <--------- keyword.control.directive.header.nvasm
OPTION ARB_draw_buffers;
# <------ keyword.other.option.nvasm
#      ^^^^^^^^^^^^^^^^ support.constant.option.nvasm
PARAM c[2] = { program.local[0..1] };
# <----- storage.type.declaration.nvasm
#     ^ variable.other.declaration.nvasm
#              ^^^^^^^ variable.language.binding.nvasm
#                     ^^^^^^^^^^^^ support.variable.binding.nvasm
#            ^ punctuation.definition.vector.nvasm
FLAT INT ATTRIB ids = fragment.attrib[3];
# <-------- storage.modifier.nvasm
#        ^^^^^^ storage.type.declaration.nvasm
#               ^^^ variable.other.declaration.nvasm
TEMP R0, A;
ADDR_SAT R0.xy, fragment.texcoord[0], -|c[1]|;
# <--- keyword.other.opcode.nvasm
#  ^^^^^ storage.modifier.suffix.nvasm
#           ^^ constant.other.swizzle.nvasm
#               ^^^^^^^^ variable.language.binding.nvasm
#                       ^^^^^^^^^^^^ support.variable.binding.nvasm
#                                      ^ keyword.operator.absolute.nvasm
MUL.S.CC1 R0, R0, 0x10;
# <--- keyword.other.opcode.nvasm
#  ^^^^^^ storage.modifier.nvasm
#                 ^^^^ constant.numeric.hex.nvasm
MOVC R0 (GT1.x), {0.5, 1e-3, 2}.xxyz;
# <--- keyword.other.opcode.nvasm
#  ^ storage.modifier.suffix.nvasm
#        ^^^ constant.language.condition.nvasm
#                 ^^^ constant.numeric.float.nvasm
#                      ^^^^ constant.numeric.float.nvasm
#                            ^ constant.numeric.integer.nvasm
#                               ^^^^ constant.other.swizzle.nvasm
TXB R0, fragment.texcoord[1], texture[2], SHADOWARRAY2D;
# <--- keyword.other.opcode.nvasm
#                             ^^^^^^^ variable.language.binding.nvasm
#                                         ^^^^^^^^^^^^^ support.type.texture-target.nvasm
TEX R0, R0, texture[0], 2D;
#                       ^^ support.type.texture-target.nvasm
IF NE.x;
# <-- keyword.control.flow.nvasm
#  ^^ constant.language.condition.nvasm
KIL fragment.color; # a comment, MOV R0;
# <--- keyword.control.flow.nvasm
#                   ^^^^^^^^^^^^^^^^^^^^ comment.line.number-sign.nvasm
ENDIF;
# <----- keyword.control.flow.nvasm
REP 4;
# <--- keyword.control.flow.nvasm
BRK (EQ0.y);
# <--- keyword.control.flow.nvasm
#    ^^^ constant.language.condition.nvasm
ENDREP;
# <------ keyword.control.flow.nvasm
CAL shade (LE);
# <--- keyword.control.flow.nvasm
#   ^^^^^ entity.name.function.label.nvasm
#          ^^ constant.language.condition.nvasm
MOV result.color[1], R0;
#   ^^^^^^ variable.language.binding.nvasm
#         ^^^^^^^^^ support.variable.binding.nvasm
RET;
# <--- keyword.control.flow.nvasm
shade: MULR_SSAT R0, R0, state.light[0].half;
# <----- entity.name.function.label.nvasm
#      ^^^ keyword.other.opcode.nvasm
#         ^^^^^^ storage.modifier.suffix.nvasm
#                        ^^^^^ variable.language.binding.nvasm
#                             ^^^^^^^^^^^^^^ support.variable.binding.nvasm
RET;
END
# <--- keyword.control.directive.end.nvasm
