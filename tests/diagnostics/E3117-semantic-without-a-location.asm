vs_3_0
dcl_position v0
dcl_position o0
// normal5 has no Location in docs/interface.md.
dcl_normal5 o1
mov o0, v0
mov o1, v0
