/**
 * Tree-sitter grammar for the NVIDIA/ARB GPU assembly family that nvp4c
 * compiles: NV_gpu_program4/5 (`!!NVvp4.0`, `!!NVfp4.0`, `!!NVgp4.0`, ...),
 * ARB_vertex_program / ARB_fragment_program (`!!ARBvp1.0`, `!!ARBfp1.0`)
 * and the NV_vertex_program / NV_fragment_program versions before them.
 *
 * It is for editors (highlighting, folding, text objects), so it is more
 * lenient than nvp4c's own grammar (grammar/nvp4.lalrpop): like the
 * spec's BNF it knows the shape of statements — options, declarations,
 * labels, instructions `OP.MOD dst, src, ...;` — but not which opcode takes
 * which operands, nor which bindings exist; nvp4c's checker and language
 * server say that. Names of opcodes are ordinary identifiers in the first
 * position of an instruction, as in nvp4c's grammar (grammar/README.md,
 * deviation 2), so `EQ` or `TEMP` stay usable as names elsewhere.
 */

const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)));
const commaSep = (rule) => optional(commaSep1(rule));

module.exports = grammar({
  name: 'nvasm',

  extras: ($) => [/\s/, $.comment],

  word: ($) => $.identifier,

  rules: {
    program: ($) =>
      seq(
        $.header,
        repeat($._statement),
        optional(seq($.end, optional($.trailing_text))),
      ),

    // `!!NVfp4.0`, `!!ARBvp1.0`, `!!VP2.0`, `!!NVtcp5.0`, ...
    header: (_) => token(/!![A-Z]+[a-z]*[0-9]\.[0-9]/),

    comment: (_) => token(/#[^\r\n]*/),

    // GL ignores what follows END (Cg writes `# N instructions` there).
    trailing_text: (_) => token(/[^\s#][\s\S]*/),

    end: (_) => 'END',

    _statement: ($) =>
      choice($.option, $.declaration, $.label, $.instruction),

    // <option> ::= "OPTION" <identifier> ";"
    option: ($) => seq('OPTION', field('name', $.identifier), ';'),

    label: ($) => seq(field('name', $.identifier), ':'),

    declaration: ($) =>
      seq(
        repeat($.declaration_modifier),
        choice(
          seq(
            field('keyword', choice('TEMP', 'ADDRESS')),
            commaSep1($.declared_name),
          ),
          seq(
            field(
              'keyword',
              choice('PARAM', 'ATTRIB', 'OUTPUT', 'BUFFER', 'BUFFER4'),
            ),
            $.declared_name,
            optional(seq('=', field('value', $._initializer))),
          ),
          seq(
            field('keyword', 'ALIAS'),
            $.declared_name,
            '=',
            field('target', $.identifier),
          ),
          seq(
            field('keyword', choice('PRIMITIVE_IN', 'PRIMITIVE_OUT')),
            field('primitive', $.identifier),
          ),
          seq(field('keyword', 'VERTICES_OUT'), $.integer),
        ),
        ';',
      ),

    declaration_modifier: (_) =>
      choice(
        'INT',
        'UINT',
        'FLOAT',
        'SHORT',
        'LONG',
        'FLAT',
        'CENTROID',
        'NOPERSPECTIVE',
      ),

    declared_name: ($) =>
      seq(
        field('name', $.identifier),
        optional(seq('[', optional($.integer), ']')),
      ),

    // In a declaration a `{` always opens a list (of bindings or numbers:
    // `{ program.local[0..1] }`, `{ 1, 2, 3, 4 }`), as in nvp4c's grammar
    // (grammar/README.md, deviation 7).
    _initializer: ($) =>
      choice($.initializer_list, alias($._initializer_item, $.operand)),

    initializer_list: ($) =>
      seq('{', commaSep(alias($._initializer_item, $.operand)), '}'),

    _initializer_item: ($) =>
      seq(
        optional(choice('-', '+')),
        choice($.number, alias($._binding_path, $.path)),
      ),

    _binding_path: ($) =>
      prec.right(
        seq(
          choice($.binding_root, $.identifier),
          repeat(choice($.member, $.index)),
        ),
      ),

    // <instruction> ::= <opcode> <opModifiers> <arguments>
    instruction: ($) =>
      seq(
        field('opcode', $.identifier),
        repeat($.opcode_modifier),
        commaSep(choice($.operand, $.parenthesized)),
        ';',
      ),

    // `.F`, `.SAT`, `.CC0` (Table X.14).
    opcode_modifier: ($) => seq('.', $.identifier),

    // `-|c[A0.x + 3].xy|`, `R0.xy (GT.x)`, `{1, 2}.x`, `texture[0]`, `2D`.
    operand: ($) =>
      seq(
        optional(choice('-', '+')),
        choice(seq('|', $._operand_value, '|'), $._operand_value),
        optional($.parenthesized),
      ),

    // (A constant vector is the head of a path: `{2, 0.5}.x`.)
    _operand_value: ($) => choice($.path, $.number, $.texture_dimension),

    // A name or binding followed by `.member` and `[index]` parts.
    path: ($) =>
      prec.right(
        seq(
          choice($.binding_root, $.identifier, $.constant_vector),
          repeat(choice($.member, $.index)),
        ),
      ),

    binding_root: (_) =>
      choice(
        'fragment',
        'vertex',
        'primitive',
        'program',
        'result',
        'state',
        'texture',
      ),

    member: ($) => seq('.', choice($.identifier, $.integer)),

    index: ($) =>
      seq(
        '[',
        optional(
          choice(
            seq($.integer, '..', $.integer),
            seq(
              choice($.integer, $.path),
              optional(seq(choice('+', '-'), $.integer)),
            ),
          ),
        ),
        ']',
      ),

    // `(GT.x)` after a destination or a branch target; `(1, -2)`, the
    // texel offset argument after a texture target.
    parenthesized: ($) =>
      seq(
        '(',
        commaSep1(choice($.path, seq(optional('-'), $.number))),
        ')',
      ),

    constant_vector: ($) =>
      seq('{', commaSep1(seq(optional(choice('-', '+')), $.number)), '}'),

    // The targets `1D`, `2D`, `3D` start with a digit.
    texture_dimension: (_) => token(/[123]D/),

    number: ($) => choice($.integer, $.float),

    integer: (_) => token(/0[xX][0-9a-fA-F]+|[0-9]+/),

    float: (_) =>
      token(/[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+/),

    identifier: (_) => /[A-Za-z_$][A-Za-z0-9_$]*/,
  },
});
