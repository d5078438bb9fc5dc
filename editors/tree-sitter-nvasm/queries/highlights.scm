; Highlighting for the GPU assembly family (grammar.js).

(comment) @comment
(header) @keyword.directive
(trailing_text) @comment

[
  "OPTION"
  "TEMP"
  "ADDRESS"
  "PARAM"
  "ATTRIB"
  "OUTPUT"
  "BUFFER"
  "BUFFER4"
  "ALIAS"
  "PRIMITIVE_IN"
  "PRIMITIVE_OUT"
  "VERTICES_OUT"
] @keyword

(end) @keyword

(declaration_modifier) @type.qualifier

(option name: (identifier) @constant.builtin)

(declaration primitive: (identifier) @constant.builtin)

(declared_name name: (identifier) @variable)

(label name: (identifier) @label)

; The target of a call or branch is a label (`CAL sub;`, `BRA loop (GT.x);`).
; The opcode is captured in the same pattern, and excluded from the next
; one: a node captured by two patterns keeps the first match only, which
; would lose the label.
(instruction
  opcode: (identifier) @function.builtin
  .
  (operand (path . (identifier) @label .))
  (#match? @function.builtin "^(CAL|BRA)$"))

((instruction opcode: (identifier) @function.builtin)
  (#not-match? @function.builtin "^(CAL|BRA)$"))

((instruction opcode: (identifier) @function.builtin .)
  (#match? @function.builtin "^(CAL|BRA)$"))

(opcode_modifier (identifier) @attribute)

(binding_root) @variable.builtin

; `texture[0], 2D` / `CUBE`, `SHADOW2D`, `ARRAY2D`, `RECT`, `BUFFER`.
(texture_dimension) @type.builtin
((path . (identifier) @type.builtin .)
  (#match? @type.builtin "^(SHADOW)?(ARRAY)?(1D|2D|3D|CUBE|RECT)$"))

(member (identifier) @property)

[(integer) (float)] @number

[";" "," ":"] @punctuation.delimiter
["[" "]" "{" "}" "(" ")" "|"] @punctuation.bracket
["=" "-" "+" ".."] @operator
