!!NVfp5.0
# source: NV_gpu_program5.txt:2761
# fixed: the spec declares `input32[3]` with two bindings (fragment.attrib[0..1]); an array's size
#   must match its binding list (NV_gpu_program4 2.X.3.2), so the size is 2
# note: the value is unpacked into result.color so that it is observable
LONG TEMP input64;
FLAT ATTRIB input32[2] = { fragment.attrib[0..1] };
PK64 input64.xy, input32[0];
PK64 input64.z,  input32[1];
UP64 result.color, input64.xyxy;
END
