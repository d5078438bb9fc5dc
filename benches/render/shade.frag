#version 450
// GLSL equivalent of benches/render/shade.fp, written as a GLSL author
// would write it, with nvp4c's interface for that program
// (docs/interface.md; `nvp4c --reflect` confirms): fragment set 2,
// program.env at binding 0, program.local at binding 1, texture[0] at
// binding 32, fragment.texcoord[0] at Location 5, result.color at
// Location 0. The blocks hold the same bits; declared here as vec4.
layout(set = 2, binding = 0) uniform ProgramEnv { vec4 env[2]; };
layout(set = 2, binding = 1) uniform ProgramLocal { vec4 local[8]; };
layout(set = 2, binding = 32) uniform sampler2D albedoMap;
layout(location = 5) in vec4 texcoord0;
layout(location = 0) out vec4 color;

void main() {
    vec4 tile = local[0];      // uv tiling xy, bump frequency z, bump height w
    vec4 material = local[1];  // shininess, ambient, specular strength, light count
    vec4 eye = env[0];         // eye position xyz, fog density w
    vec4 fog = env[1];         // fog colour rgb, gamma exponent w

    vec2 uv = texcoord0.xy * tile.xy;
    vec4 albedo = texture(albedoMap, uv);
    vec2 t = uv * tile.z;
    vec3 n = normalize(vec3(vec2(sin(t.x), cos(t.y)) * -tile.w, 1.0));
    vec3 p = vec3(texcoord0.xy * 2.0 - 1.0, 0.0);
    vec3 v = normalize(eye.xyz - p);

    vec3 diffuse = vec3(0.0);
    vec3 specular = vec3(0.0);
    // The loop has REP's shape: the count is tested once before the loop,
    // then at the end of each iteration. (The same loop written as
    // `for (int i = 0; i < lights; i++)` costs about 12 % more time per
    // frame on lavapipe, which would flatter nvp4c; docs/performance.md.)
    int lights = int(material.w);
    if (lights > 0) {
        int i = 0;
        do {
            vec3 l = local[2 + i].xyz - p;
            float dist2 = dot(l, l);
            l *= inversesqrt(dist2);
            float attenuation = clamp(1.0 - dist2 * local[2 + i].w, 0.0, 1.0);
            float ndotl = dot(n, l);
            if (ndotl > 0.0) {
                vec3 c = local[5 + i].rgb * attenuation;
                diffuse += c * ndotl;
                vec3 h = normalize(l + v);
                specular += c * pow(clamp(dot(n, h), 0.0, 1.0), material.x);
            }
        } while (++i < lights);
    }

    vec3 rgb = albedo.rgb * (diffuse + material.y) + specular * material.z;
    vec2 q = gl_FragCoord.xy * (1.0 / 512.0) - 1.0;
    float f = exp2(dot(q, q) * -eye.w);
    rgb = mix(fog.rgb, rgb, f);
    color = vec4(pow(rgb, vec3(fog.w)), albedo.a);
}
