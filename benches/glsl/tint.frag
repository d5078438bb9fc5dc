#version 450
// GLSL equivalent of examples/tint.fp (Cg's gp4fp output of the same shader).
layout(set = 1, binding = 0) uniform Locals { vec4 c[2]; };
layout(location = 0) in vec4 texcoord0;
layout(location = 0) out vec4 color;
void main() {
    vec4 r0 = texcoord0 * c[0];
    r0.xyz = r0.xyz * 2.0 - c[1].xyz;
    r0.w = clamp(dot(r0.xyz, vec3(0.25, 0.5, 0.25)), 0.0, 1.0);
    r0.x = clamp(r0.x + 0.125, 0.0, 1.0);
    color = r0;
}
