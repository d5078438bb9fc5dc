!!NVfp5.0
# source: NV_gpu_program5.txt:3027
# below vulkan1.2: E1140 (ATOM at a GPU address is a PhysicalStorageBuffer pointer, SPIR-V 1.5; docs/interface.md, "GPU addresses")
# note: both halves of the example (a dummy result, and the "(FL)" write mask); the 64-bit
#   address is read from program.local[0].xy with PK64 into a LONG temporary. By the grammar
#   (<ATOMop> <opModifiers> <instResult> "," <instOperandV> "," <instOperandS>) the issue's
#   operands read `address` as the value added and `1` as the GPU address; kept as quoted
#   (compiled and validated only, never run)
LONG TEMP address;
PK64.U address, program.local[0];
TEMP junk;
ATOM.ADD.U32 junk, address, 1;
TEMP not_junk;
ATOM.ADD.U32 not_junk (FL), address, 1;
END
