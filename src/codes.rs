//! The registry of diagnostic codes: one row per code, with the rule it
//! enforces. docs/diagnostics.md lists the same rows with a program that
//! triggers each; tests/tools/diagnostics.rs keeps the three in step.
//!
//! ```
//! let info = nvp4c::codes::lookup("E0400").unwrap();
//! assert_eq!(info.title, "unknown instruction");
//! assert!(nvp4c::codes::CODES.iter().all(|c| c.code.len() == 5));
//! ```

/// One diagnostic code.
///
/// ```
/// let info = nvp4c::codes::lookup("W0002").unwrap();
/// assert_eq!((info.code, info.title), ("W0002", "variable declared and never used"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CodeInfo {
    /// The code: `E` and four digits for errors, `W` and four for warnings.
    pub code: &'static str,
    /// A short description, as docs/diagnostics.md lists it.
    pub title: &'static str,
    /// The spec rule it enforces, with its section.
    pub rule: &'static str,
}

/// Every code nvp4c reports.
///
/// ```
/// let errors = nvp4c::codes::CODES.iter().filter(|c| c.code.starts_with('E')).count();
/// assert!(errors > 100);
/// ```
pub const CODES: &[CodeInfo] = &[
    CodeInfo { code: "E0001", title: "unexpected character", rule: "NV_gpu_program4 2.X.2: \"A program is invalid if it contains any tokens or characters not defined in this specification.\"" },
    CodeInfo { code: "E0002", title: "missing or unknown program header", rule: "NV_vertex_program4, NV_fragment_program4, NV_geometry_program4 2.X.2: programs begin with `!!NVvp4.0`, `!!NVfp4.0`, `!!NVgp4.0`" },
    CodeInfo { code: "E0003", title: "program text is not valid UTF-8", rule: "2.X.2: program strings are arrays of ASCII characters" },
    CodeInfo { code: "E0004", title: "program larger than Options::max_source_bytes", rule: "— (an embedder's bound on input size)" },
    CodeInfo { code: "E0100", title: "syntax error", rule: "2.X.2: the program must match the BNF (\"fails to load because it is not syntactically correct\")" },
    CodeInfo { code: "E0101", title: "program ends without END", rule: "2.X.2: <program> ::= ... \"END\"" },
    CodeInfo { code: "E0200", title: "unknown binding", rule: "2.X.3.2, 2.X.3.3, 2.X.3.5 binding tables of each program type" },
    CodeInfo { code: "E0201", title: "integer constant too large", rule: "2.X.3.3: \"If the value used to specify an integer constant is too large to be represented, the program will fail to load.\"" },
    CodeInfo { code: "E0202", title: "empty range [a..b] with a > b", rule: "2.X.3.3: \"A program using any of these bindings will fail to load if <a> is greater than <b>\"; NV_vertex_program4/NV_geometry_program4: \"will fail to load if <n> is greater than <o>\"" },
    CodeInfo { code: "E0203", title: "range or whole matrix outside an array declaration", rule: "2.X.2 (<arrayRange> only in array initializers); NV_vertex_program4: ranges \"are available only in explicit declarations of array variables\"" },
    CodeInfo { code: "E0204", title: "relative addressing on a binding", rule: "2.X.2 (bindings take <arrayMemAbs>); NV_gpu_program4 issues 2 and 10" },
    CodeInfo { code: "E0205", title: "binding needs an index", rule: "2.X.2 (<attribGeneric> <arrayMemAbs>, `state.light[n]`, `row[n]` ...)" },
    CodeInfo { code: "E0206", title: "matrix row out of range", rule: "ARB_vertex_program 2.14.1.x: matrix rows are 0 to 3" },
    CodeInfo { code: "E0207", title: "suffix in a declaration's binding", rule: "2.X.2: <attribUseD>, <paramUseDB>, <resultUseD> take no swizzle" },
    CodeInfo { code: "E0208", title: "parameter buffer binding outside BUFFER/BUFFER4", rule: "NV_parameter_buffer_object 2.X.3.6" },
    CodeInfo { code: "E0209", title: "binding of the wrong kind for the declaration or operand", rule: "2.X.2 (ATTRIB takes <attribUseD>, PARAM <paramUseDB>, OUTPUT <resultUseD>); 2.X.4.4" },
    CodeInfo { code: "E0210", title: "constant vector with more than four components", rule: "2.X.2: <constantVectorList> has one to four components" },
    CodeInfo { code: "E0212", title: "floating-point constant read as an integer", rule: "2.X.3.3: \"A program will fail to load if it specifies a floating-point constant value ... that should be interpreted as a signed or unsigned integer\"" },
    CodeInfo { code: "E0213", title: "negative constant read as UINT", rule: "2.X.3.3: \"... or a negative integer constant value that should be interpreted as an unsigned integer.\"" },
    CodeInfo { code: "E0220", title: "conventional and generic vertex attribute both bound", rule: "NV_vertex_program4 2.X.3.2: \"a vertex program will fail to load if it binds both a conventional vertex attribute and a generic vertex attribute listed in the same row\"" },
    CodeInfo { code: "E0221", title: "binding of another program type", rule: "2.X.2 reserved words per program type; each type's 2.X.3.2" },
    CodeInfo { code: "E0222", title: "state binding index past the GL array size", rule: "ARB_vertex_program 2.14.1.x state tables (MAX_LIGHTS, MAX_CLIP_PLANES, MAX_TEXTURE_COORDS, MAX_PROGRAM_MATRICES_ARB)" },
    CodeInfo { code: "E0300", title: "name declared twice", rule: "2.X.3: \"A program will fail to load if it declares the same variable name more than once\"" },
    CodeInfo { code: "E0301", title: "name not declared", rule: "2.X.3: \"... or if it refers to a variable name that has not been previously declared\"; 2.X.3.8 (ALIAS)" },
    CodeInfo { code: "E0302", title: "reserved keyword used as a name", rule: "2.X.2: reserved keywords \"may not be used as identifiers\"" },
    CodeInfo { code: "E0310", title: "two data type modifiers in one declaration", rule: "2.X.3.1: \"A program will fail to load if it specifies multiple data type ... modifiers in a single variable declaration.\"" },
    CodeInfo { code: "E0311", title: "two size modifiers in one declaration", rule: "2.X.3.1: \"... or multiple storage size modifiers in a single variable declaration.\"" },
    CodeInfo { code: "E0312", title: "LONG or SHORT on a declaration that cannot take it", rule: "2.X.3.1: LONG only on TEMP, SHORT only on TEMP and OUTPUT" },
    CodeInfo { code: "E0313", title: "interpolation modifier on a non-attribute", rule: "NV_fragment_program4 2.X.3.1: fails to load \"if an interpolation modifier is specified when declaring a non-attribute variable\"" },
    CodeInfo { code: "E0314", title: "interpolation modifier given twice", rule: "NV_fragment_program4 2.X.3.1: \"if the same interpolation modifier is specified more than once in a single declaration\"" },
    CodeInfo { code: "E0315", title: "FLAT with CENTROID or NOPERSPECTIVE", rule: "NV_fragment_program4 2.X.3.1: \"if the \\\"FLAT\\\" modifier is used together with either \\\"CENTROID\\\" or \\\"NOPERSPECTIVE\\\"\"" },
    CodeInfo { code: "E0316", title: "interpolation modifier on position, facing, fog or clip", rule: "NV_fragment_program4 2.X.3.1: \"if any interpolation modifier is specified when declaring a variable bound to a fragment's position, face direction, fog coordinate, or any interpolated clip distance\"" },
    CodeInfo { code: "E0317", title: "INT or UINT fragment attribute without FLAT", rule: "NV_fragment_program4 2.X.3.1: \"a program will fail to load if it declares a variable with the \\\"INT\\\" or \\\"UINT\\\" data type modifiers without the \\\"FLAT\\\" interpolation modifier\"" },
    CodeInfo { code: "E0318", title: "one attribute with different interpolation modifiers", rule: "NV_fragment_program4 2.X.3.1: \"if multiple attribute variables with different interpolation modifiers are bound to the same fragment attribute\" (and primary/secondary color)" },
    CodeInfo { code: "E0320", title: "TEMP array without a size", rule: "2.X.3.1: \"For variable classes without bindings, an array size must be specified\"" },
    CodeInfo { code: "E0321", title: "array of size 0", rule: "2.X.3.1: the size \"must be a positive integer\"" },
    CodeInfo { code: "E0322", title: "several bindings for a non-array variable", rule: "2.X.2 <PARAM_singleStmt> vs <PARAM_multipleStmt>" },
    CodeInfo { code: "E0323", title: "declared size does not match the bindings", rule: "2.X.3.1: \"A program will fail to load if the declared size of an array variable does not match the number of assigned bindings.\"" },
    CodeInfo { code: "E0324", title: "constant in a non-PARAM declaration", rule: "2.X.2: only <paramUseDB>/<paramUseDM> include constants" },
    CodeInfo { code: "E0325", title: "binding that cannot be an array element", rule: "2.X.3.2 / 2.X.3.5: arrays take only \"state grouped in arrays\"" },
    CodeInfo { code: "E0326", title: "array mixes binding types", rule: "2.X.3.2 / 2.X.3.5: \"all bindings assigned to the array must be of the same binding type\"" },
    CodeInfo { code: "E0327", title: "array bindings not consecutive and increasing", rule: "2.X.3.2 / 2.X.3.5: \"... and must increase consecutively\"" },
    CodeInfo { code: "E0328", title: "binding in more than one relatively addressed array", rule: "2.X.3.3: \"fail to load if any program parameter binding is used more than once in a single array accessed using relative addressing or used at least once in two or more arrays\"; 2.X.3.2, 2.X.3.5" },
    CodeInfo { code: "E0329", title: "BUFFER and BUFFER4 on one binding point", rule: "NV_parameter_buffer_object 2.X.3.6: \"fail to load if a variable declared as \\\"BUFFER\\\" and another variable declared as \\\"BUFFER4\\\" use the same buffer binding point\"" },
    CodeInfo { code: "E0330", title: "buffer array bindings not one consecutive range of one binding point", rule: "NV_parameter_buffer_object 2.X.3.6: \"all bindings assigned to the array must use the same binding point and must increase consecutively\"" },
    CodeInfo { code: "E0340", title: "absolute index out of range", rule: "2.X.4.2: \"If the specified member number is greater than or equal to the size of the array, the program will fail to load.\"" },
    CodeInfo { code: "E0341", title: "relative offset outside [0, n-1]", rule: "2.X.4.2: \"A program will fail to load if it specifies an offset outside that range.\"" },
    CodeInfo { code: "E0342", title: "range used as an operand index", rule: "2.X.2: operands take <arrayMemAbs> or <arrayMemRel>" },
    CodeInfo { code: "E0343", title: "index on a non-array", rule: "2.X.3.1: \"fail to load if it contains ... an instruction that specifies an array member for a non-array variable\"" },
    CodeInfo { code: "E0344", title: "array used without an index", rule: "2.X.3.1: \"fail to load if it contains an instruction that accesses an array variable without specifying an array member\"" },
    CodeInfo { code: "E0345", title: "suffix on a scalar constant", rule: "2.X.2: <paramUseV> ::= ... | <constantScalar>" },
    CodeInfo { code: "E0346", title: "unexpected suffix after an operand", rule: "2.X.2: <swizzleSuffix> / <optWriteMask> appear once" },
    CodeInfo { code: "E0350", title: "variable read or written with a conflicting data type", rule: "2.X.4: \"If any variables with a conflicting data type are used in the instruction, the program will fail to load unless the \\\"NTC\\\" ... modifier is specified\"; 2.X.3.1" },
    CodeInfo { code: "E0351", title: "result variable read", rule: "2.X.3.5: result variables \"are write-only\"" },
    CodeInfo { code: "E0360", title: "negated or absolute destination", rule: "2.X.2: <instResult> has no sign or bars" },
    CodeInfo { code: "E0361", title: "destination that is not a temporary or result", rule: "2.X.2: <instResultBase> ::= <tempUseW> | <resultUseW>" },
    CodeInfo { code: "E0400", title: "unknown instruction", rule: "2.X.4, Table X.13" },
    CodeInfo { code: "E0401", title: "suffixes out of order or unknown", rule: "2.X.4.1, Table X.15: \"they must appear in order, with data type suffixes first, followed by condition code update suffixes, followed by clamping suffixes\"" },
    CodeInfo { code: "E0402", title: "unknown modifier", rule: "2.X.4.1, Table X.14" },
    CodeInfo { code: "E0403", title: "two modifiers of one kind", rule: "2.X.4.1: fails to load if an instruction \"specifies more than one modifier of any given type\"" },
    CodeInfo { code: "E0404", title: "modifier not supported by the instruction", rule: "2.X.4.1: \"specifies a modifier that is not supported by the instruction\"; S24/U24/HI only on MUL" },
    CodeInfo { code: "E0405", title: "MUL.S24/U24 with a data type, or MUL.HI without S/U", rule: "2.X.8.Z, MUL" },
    CodeInfo { code: "E0406", title: "clamp on an instruction without a float result", rule: "2.X.4.1: \"specifies a clamping modifier on an instruction, unless it produces floating-point results\"" },
    CodeInfo { code: "E0410", title: "instruction of another program type", rule: "NV_fragment_program4 (KIL, DDX, DDY), NV_geometry_program4 (EMIT, ENDPRIM)" },
    CodeInfo { code: "E0411", title: "wrong number of operands", rule: "2.X.2 instruction classes" },
    CodeInfo { code: "E0412", title: "condition code mask where none is allowed", rule: "2.X.2 instruction classes" },
    CodeInfo { code: "E0413", title: "BRK/CONT/RET/CAL condition without parentheses", rule: "2.X.2: <optBranchCond> ::= <ccMask> ::= \"(\" <ccTest> \")\"" },
    CodeInfo { code: "E0414", title: "unknown condition code test", rule: "2.X.4.3, Table X.16" },
    CodeInfo { code: "E0420", title: "CAL without a label", rule: "2.X.2: <BRAop_instruction> ::= <BRAop> <opModifiers> <instTarget> <optBranchCond>" },
    CodeInfo { code: "E0421", title: "IF without a bare condition", rule: "2.X.2: <IFop_instruction> ::= <IFop> <opModifiers> <ccTest>" },
    CodeInfo { code: "E0422", title: "KIL without an operand or test", rule: "NV_fragment_program4 2.X.8.Z, KIL" },
    CodeInfo { code: "E0430", title: "invalid swizzle (mixed sets, wrong length)", rule: "2.X.4.2: \"A program will fail to load if it contains a swizzle suffix with selectors from both of these sets.\"" },
    CodeInfo { code: "E0431", title: "vector where a scalar is needed", rule: "2.X.2: <instOperandS> takes a <scalarSuffix>" },
    CodeInfo { code: "E0432", title: "invalid write mask", rule: "2.X.4.3: components \"must be listed in \\\"xyzw\\\" order\", no mixing of xyzw and rgba" },
    CodeInfo { code: "E0433", title: "SWZ source with a swizzle", rule: "2.X.2: <SWZop_instruction> takes <instOperandVNS>" },
    CodeInfo { code: "E0435", title: "invalid extended swizzle component", rule: "2.X.2: <extSwizComp>" },
    CodeInfo { code: "E0440", title: "malformed texture access", rule: "2.X.2: <texAccess> ::= <texImageUnit> \",\" <texTarget> [\",\" <texOffset>]" },
    CodeInfo { code: "E0441", title: "texture unit out of range", rule: "2.X.4.4: unit < MAX_TEXTURE_IMAGE_UNITS" },
    CodeInfo { code: "E0442", title: "unknown texture target", rule: "2.X.2: <texTarget>" },
    CodeInfo { code: "E0443", title: "texel offset out of range", rule: "2.X.4.4: fails to load \"if any component of the offset vector is less than MIN_PROGRAM_TEXEL_OFFSET_EXT or greater than MAX_PROGRAM_TEXEL_OFFSET_EXT\"" },
    CodeInfo { code: "E0444", title: "one texture unit used with two targets", rule: "2.X.4.4: \"A program will fail to load if it attempts to sample from multiple texture targets (including the SHADOW pseudo-targets) on the same texture image unit.\"" },
    CodeInfo { code: "E0445", title: "TXF with a SHADOW or CUBE target", rule: "2.X.4.4 / 2.X.8.Z, TXF: \"If a program contains a TXF instruction specifying one of the \\\"SHADOW\\\" or \\\"CUBE\\\" targets, it will fail to load.\"" },
    CodeInfo { code: "E0446", title: "TXB, TXL or TXP with SHADOWCUBE or SHADOWARRAY2D", rule: "2.X.8.Z, TXB / TXL / TXP: \"fail to load if it contains a TXB instruction with a target of SHADOWCUBE or SHADOWARRAY2D\"" },
    CodeInfo { code: "E0447", title: "BUFFER target outside TXF/TXQ", rule: "EXT_texture_buffer_object: buffer textures are read with TXF" },
    CodeInfo { code: "E0448", title: "texel offset beyond the target's dimensions", rule: "2.X.4.4: offsets beyond the target's dimensions must be zero; none for CUBE" },
    CodeInfo { code: "E0449", title: "pack result in or unpack operand from a SHORT variable", rule: "2.X.8.Z, PK2H ... UP4UB: \"fail to load if it contains a PK2H instruction that writes its results to a variable declared as \\\"SHORT\\\"\"" },
    CodeInfo { code: "E0501", title: "block closed by the wrong instruction (or a second ELSE)", rule: "2.X.5: \"A program will fail to load if any instruction block is terminated by an incorrect instruction\"" },
    CodeInfo { code: "E0502", title: "ELSE, ENDIF or ENDREP without an open block", rule: "2.X.5" },
    CodeInfo { code: "E0503", title: "label inside a block", rule: "2.X.5: fails to load if a block \"contains an instruction label\"" },
    CodeInfo { code: "E0504", title: "block never closed", rule: "2.X.5: fails to load if a block \"is not terminated before the block containing it\"" },
    CodeInfo { code: "E0505", title: "REP without a count, BRK or RET", rule: "2.X.5: fails to load \"if it contains a REP/ENDREP block that contains neither a BRK instruction at the current nesting level or a RET instruction at any nesting level\"" },
    CodeInfo { code: "E0506", title: "IF nested too deep", rule: "2.X.5: \"a program will fail to load if an IF instruction is nested inside MAX_PROGRAM_IF_DEPTH_NV or more IF/ELSE/ENDIF blocks\"" },
    CodeInfo { code: "E0507", title: "REP nested too deep", rule: "2.X.5: \"a program will fail to load if a REP instruction is nested inside MAX_PROGRAM_LOOP_DEPTH_NV or more REP/ENDREP blocks\"" },
    CodeInfo { code: "E0508", title: "BRK or CONT outside REP", rule: "2.X.5: \"A program will fail to load if it includes a CONT or BRK instruction that is not contained inside a REP/ENDREP block.\"" },
    CodeInfo { code: "E0509", title: "label defined twice", rule: "2.X.5: a label names one subroutine" },
    CodeInfo { code: "E0510", title: "CAL to an undefined label", rule: "2.X.5: \"a program will fail to load if it includes a CAL instruction that references an instruction label that is not defined anywhere in the program\"" },
    CodeInfo { code: "E0700", title: "unknown option", rule: "2.X.6; ARB_vertex_program: \"If an unrecognized option is specified, the program will fail to load.\"" },
    CodeInfo { code: "E0701", title: "conflicting options", rule: "NV_fragment_program4: more than one fog option, or both precision hints, \"will fail to load\"" },
    CodeInfo { code: "E0702", title: "result.position in a position-invariant program", rule: "NV_vertex_program4: position-invariant programs \"can no longer declare (explicitly or implicitly) a result variable bound to \\\"result.position\\\"\"" },
    CodeInfo { code: "E0703", title: "result.color[n] without OPTION ARB_draw_buffers", rule: "NV_fragment_program4: \"a fragment program that attempts to bind \\\"result.color[n]\\\" will fail to load\" without the option" },
    CodeInfo { code: "E0720", title: "geometry declaration in another program type", rule: "NV_geometry_program4 2.X.7" },
    CodeInfo { code: "E0721", title: "geometry declaration given twice", rule: "NV_geometry_program4: \"will fail to load unless it contains exactly one such declaration\"" },
    CodeInfo { code: "E0722", title: "VERTICES_OUT not positive", rule: "NV_geometry_program4 2.X.7" },
    CodeInfo { code: "E0723", title: "PRIMITIVE_IN, PRIMITIVE_OUT or VERTICES_OUT missing", rule: "NV_geometry_program4: \"A geometry program will fail to load unless it contains exactly one such declaration.\"" },
    CodeInfo { code: "E0724", title: "unknown primitive type", rule: "NV_geometry_program4 2.X.2 <declPrimInType>, <declPrimOutType>" },
    CodeInfo { code: "E0725", title: "VERTICES_OUT above MAX_PROGRAM_OUTPUT_VERTICES_NV", rule: "NV_geometry_program4: \"will fail to load if its maximum vertex count ... exceeds the implementation-dependent limit\"" },
    CodeInfo { code: "E0726", title: "VERTICES_OUT × result components above MAX_PROGRAM_TOTAL_OUTPUT_COMPONENTS_NV", rule: "NV_geometry_program4: \"... or maximum total component count exceeds the implementation-dependent limit\"" },
    CodeInfo { code: "E0800", title: "too many instructions", rule: "ARB_vertex_program / ARB_fragment_program resource limits (MAX_PROGRAM_INSTRUCTIONS_ARB); NV_fragment_program4 fog and NV_vertex_program4 position-invariance reductions" },
    CodeInfo { code: "E0801", title: "too many temporaries", rule: "ARB resource limits (MAX_PROGRAM_TEMPORARIES_ARB)" },
    CodeInfo { code: "E0802", title: "too many parameters", rule: "ARB resource limits (MAX_PROGRAM_PARAMETERS_ARB)" },
    CodeInfo { code: "E0803", title: "too many attributes", rule: "ARB resource limits (MAX_PROGRAM_ATTRIBS_ARB); NV_gpu_program4 2.X.3.2 (MAX_PROGRAM_ATTRIB_COMPONENTS_NV)" },
    CodeInfo { code: "E0804", title: "program.env/local number past the last parameter", rule: "ARB_vertex_program 2.14.1.1 (MAX_PROGRAM_ENV_PARAMETERS_ARB, MAX_PROGRAM_LOCAL_PARAMETERS_ARB)" },
    CodeInfo { code: "E0805", title: "parameter buffer binding point past the last one", rule: "NV_parameter_buffer_object (MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV)" },
    CodeInfo { code: "E0806", title: "too many attribute components read", rule: "2.X.3.2: \"Programs that use more attribute binding components than this limit will fail to load\" (MAX_PROGRAM_ATTRIB_COMPONENTS_NV)" },
    CodeInfo { code: "E0807", title: "too many result components written", rule: "2.X.3.5: \"Programs that require more result binding components than this limit will fail to load\" (MAX_PROGRAM_RESULT_COMPONENTS_NV)" },
    CodeInfo { code: "E0900", title: "valid, but not lowered to SPIR-V yet", rule: "— (nvp4c's support table in README.md)" },
    CodeInfo { code: "E1000", title: "attribute not written by the previous stage (nvp4c link)", rule: "NV_geometry_program4 2.X.3.2: \"The value of any attribute corresponding to a vertex output not written by the vertex program is undefined\"" },
    CodeInfo { code: "E1001", title: "varying read with another component type than written (nvp4c link)", rule: "NV_geometry_program4 2.X.3.2: attributes \"should be read using the same component data type used to write the corresponding vertex program results\"; Vulkan interface matching" },
    CodeInfo { code: "E1002", title: "integer bits read through an interpolated fragment attribute (nvp4c link)", rule: "NV_fragment_program4 2.X.3.1 (integer attributes are flat); docs/interface.md, \"Varyings\"" },
    CodeInfo { code: "E3000", title: "not a Direct3D 9 shader: no version token", rule: "Direct3D 9 shader code format (ddk-shader-code-format.md): a shader starts with a version token, 0xFFFEmmnn (vertex) or 0xFFFFmmnn (pixel)" },
    CodeInfo { code: "E3001", title: "not a Direct3D 9 shader version", rule: "asm reference, \"vs\" and \"ps\" instructions: vs_1_1, vs_2_0, vs_2_x, vs_2_sw, vs_3_0, vs_3_sw, ps_1_1 to ps_1_4, ps_2_0, ps_2_x, ps_2_sw, ps_3_0, ps_3_sw" },
    CodeInfo { code: "E3002", title: "token stream cut short", rule: "Direct3D 9 shader code format: the token stream is whole 32-bit tokens and ends with the end token 0x0000FFFF" },
    CodeInfo { code: "E3003", title: "unknown opcode", rule: "D3DSHADER_INSTRUCTION_OPCODE_TYPE (ddi-d3dshader-instruction-opcode-type.md)" },
    CodeInfo { code: "E3004", title: "instruction length field disagrees with the instruction", rule: "Instruction Token: bits 24-27 are the number of tokens that follow in shader model 2 and 3, 0 in shader model 1" },
    CodeInfo { code: "E3005", title: "malformed parameter token", rule: "Destination/Source Parameter Token: bit 31 set, reserved bits clear, a D3DSHADER_PARAM_REGISTER_TYPE, a source modifier, a D3DDECLUSAGE or D3DSAMPLER_TEXTURE_TYPE" },
    CodeInfo { code: "E3100", title: "instruction not in this shader version", rule: "the instruction's page: \"This instruction is supported in the following versions\"" },
    CodeInfo { code: "E3101", title: "register of the wrong kind for the operand", rule: "Registers - vs_* / ps_* Registers (read/write, which instructions use a register type); the instruction's page" },
    CodeInfo { code: "E3102", title: "register number out of range", rule: "Registers - vs_* / ps_* Registers: register counts per version" },
    CodeInfo { code: "E3103", title: "instruction modifier or control bits not allowed", rule: "Modifiers for ps_1_X, Modifiers for ps_2_0 and above, Instruction Token bits 16-23 (comparisons, texld flags)" },
    CodeInfo { code: "E3104", title: "source modifier not allowed", rule: "Pixel/Vertex Shader Source Register Modifiers" },
    CodeInfo { code: "E3105", title: "write mask not allowed", rule: "Destination Register Masking / Destination Register Write Mask; the instruction's page" },
    CodeInfo { code: "E3106", title: "swizzle not allowed", rule: "Source Register Swizzling; replicate swizzles required by scalar and comparison instructions and the predicate" },
    CodeInfo { code: "E3107", title: "relative addressing not allowed here", rule: "Relative Addressing (vs, ps): c# by a0 in vertex shaders, v# and o# by aL in vs_3_0, v# by aL in ps_3_0" },
    CodeInfo { code: "E3108", title: "declaration rule broken", rule: "dcl_usage, dcl_samplerType, dcl (ps): what can be declared, once, before the first executable instruction; registers that require a declaration" },
    CodeInfo { code: "E3109", title: "flow control unmatched or nested too deep", rule: "Flow Control Nesting Limits (vs, ps); if/else/endif, rep/endrep, loop/endloop, break pages" },
    CodeInfo { code: "E3110", title: "subroutine or label rule broken", rule: "label, call, callnz, ret pages: a label follows a ret, calls go forward to defined labels, call nesting limits, aL in subroutines" },
    CodeInfo { code: "E3111", title: "predication not allowed", rule: "Predicate Register, setp_comp \"Applying the Predicate Register\": p0 only, arithmetic and texture instructions, vs_2_x/ps_2_x and later" },
    CodeInfo { code: "E3112", title: "ps_1_x texture-register rule broken", rule: "ps_1_x Registers and the texture instruction pages: texture instructions first, t# written once, texm3x2/texm3x3 sequences, texbem data, ps_1_4 phases" },
    CodeInfo { code: "E3113", title: "too many instruction slots", rule: "Vertex/Pixel Shader Differences, \"Instruction Slots\"" },
    CodeInfo { code: "E3114", title: "register read before it is written", rule: "Temporary Register: \"Vertex shaders that read a value from a temporary register before writing to it will fail\"; ps_1_x Registers: reading an unwritten temporary or texture register fails validation" },
    CodeInfo { code: "E3115", title: "operand rule of an instruction broken", rule: "the instruction's page (crs, m4x4 ..., nrm, sincos, sgn, texld, cnd, cmp, def*, loop constants)" },
    CodeInfo { code: "E3116", title: "co-issue rule broken", rule: "Destination Register Write Mask (co-issue); dp4, bem pages" },
    CodeInfo { code: "E3117", title: "varying semantic has no Location", rule: "docs/interface.md, \"Direct3D 9 varyings\": the semantics nvp4c places" },
    CodeInfo { code: "E9000", title: "internal compiler error: module failed validation", rule: "— (a bug in nvp4c; the module is never written)" },
    CodeInfo { code: "E9001", title: "internal compiler error", rule: "— (a bug in nvp4c)" },
    CodeInfo { code: "W0001", title: "temporary read before anything writes it", rule: "2.X.3.4: temporaries \"are undefined at the beginning of each program invocation\"" },
    CodeInfo { code: "W0002", title: "variable declared and never used", rule: "—" },
    CodeInfo { code: "W0003", title: "program never writes its main result", rule: "2.X.3.5: unwritten results are undefined" },
    CodeInfo { code: "W0004", title: "static CAL chain deeper than MAX_PROGRAM_CALL_DEPTH", rule: "2.X.5: a CAL past the limit \"has undefined results\"" },
    CodeInfo { code: "W0005", title: "XPD or NRM writes the undefined w component", rule: "2.X.8.Z, XPD / NRM: \"result.w = undefined\"" },
    CodeInfo { code: "W3000", title: "bytes after the end token", rule: "Direct3D 9 shader code format: the end token ends the shader" },
    CodeInfo { code: "W3001", title: "CTAB constant table cannot be read", rule: "D3DXSHADER_CONSTANTTABLE (d3dx9shader.h): offsets inside the table" },
    CodeInfo { code: "W3002", title: "restriction of the shader version's hardware", rule: "the page that forbids it; the meaning is clear, so the shader compiles (--deny-warnings rejects it)" },
];

/// The registry row of a code.
///
/// `None` for a code nvp4c does not have.
///
/// ```
/// assert_eq!(nvp4c::codes::lookup("E0003").unwrap().title, "program text is not valid UTF-8");
/// assert!(nvp4c::codes::lookup("E9999").is_none());
/// ```
pub fn lookup(code: &str) -> Option<&'static CodeInfo> {
    CODES.iter().find(|c| c.code == code)
}
