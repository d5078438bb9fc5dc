#version 450
// GLSL equivalent of tests/programs/lighting.vp (Cg's gp4vp output).
layout(set = 0, binding = 0) uniform Locals { vec4 c[11]; };
layout(location = 0) in vec4 position;
layout(location = 2) in vec4 normal;
layout(location = 8) in vec4 texcoord;
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 tex0;
layout(location = 2) out vec4 tex1;
layout(location = 3) out vec4 tex2;
layout(location = 4) out vec4 attrib0;
layout(location = 5) out float fogcoord;
out gl_PerVertex { vec4 gl_Position; float gl_PointSize; float gl_ClipDistance[1]; };
void main() {
    vec4 r0, r1, r2, r3, r4;
    r0 = vec4(dot(c[0], position), dot(c[1], position), dot(c[2], position), dot(c[3], position));
    gl_Position = r0;
    r1 = vec4(dot(c[4], position), dot(c[5], position), dot(c[6], position), dot(c[7], position));
    r2.xyz = vec3(dot(c[4].xyz, normal.xyz), dot(c[5].xyz, normal.xyz), dot(c[6].xyz, normal.xyz));
    r2.xyz = normalize(r2.xyz);
    r3.xyz = c[8].xyz - r1.xyz;
    r3.w = inversesqrt(dot(r3.xyz, r3.xyz));
    r3.xyz *= r3.w;
    r4.x = clamp(dot(r2.xyz, r3.xyz), 0.0, 1.0);
    r0.xyz = normalize(r3.xyz + vec3(0.0, 0.0, 1.0));
    r4.y = clamp(dot(r2.xyz, r0.xyz), 0.0, 1.0);
    r4.z = pow(r4.y, c[10].x);
    if (r4.x > 0.0) {
        r0.xyz = c[9].xyz * r4.x;
        r0.xyz = c[9].xyz * r4.z + r0.xyz;
    } else {
        r0.xyz = vec3(0.0);
    }
    r0.w = 1.0;
    int a0 = int(floor(3.0));
    for (int i = 0; i < a0; i++) {
        r0.xyz *= 1.05;
    }
    color = min(r0, vec4(1.0));
    tex0.xy = texcoord.xy * 2.0;
    tex0.zw = vec2(0.0, 1.0);
    r1.w = inversesqrt(dot(r1.xyz, r1.xyz));
    fogcoord = 1.0 / r1.w;
    r1.w *= 64.0;
    gl_PointSize = max(r1.w, 1.0);
    gl_ClipDistance[0] = dot(vec4(0.0, 1.0, 0.0, 0.0), r1);
    r1.x = float(a0);
    attrib0 = r1;
    r2.w = sign(r2.z);
    r3 = vec4(lessThan(r2, vec4(0.0)));
    r4 = vec4(greaterThanEqual(r2, vec4(0.0)));
    r3 = mix(r2, r4, r3);
    tex1 = r3 * 0.5 + 0.5;
    r3.xyz = cross(r2.xyz, r3.xyz);
    r4 = vec4(1.0, r3.y * r2.y, r3.z, r2.w);
    float d = max(r4.x, 0.0);
    r4 = vec4(1.0, d, d > 0.0 ? pow(max(r4.y, 0.0), clamp(r4.w, -128.0, 128.0)) : 0.0, 1.0);
    tex2 = r4;
}
