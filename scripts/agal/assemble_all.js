// Assembles every case of a random-lines JSON file (stdin) with the real
// AGALMiniAssembler and prints the cases with its result: "bytes" (hex) or
// "error" (its message). Run from a directory holding node_modules/openfl.
global.window = globalThis;
const path = require('path');
const AGALMiniAssembler = require(path.resolve('node_modules/openfl/lib/openfl/utils/AGALMiniAssembler')).default;
// Its warnings about skipped lines go to the console; keep stdout for JSON.
console.warn = () => {}; console.info = () => {}; console.log = () => {};
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
for (const c of cases) {
  const asm = new AGALMiniAssembler(false);
  const ba = asm.assemble(c.stage, c.text, c.version);
  if (asm.error) { c.error = asm.error.split('\n')[0]; continue; }
  let hex = ''; ba.position = 0;
  for (let i = 0; i < ba.length; i++) hex += ba.readUnsignedByte().toString(16).padStart(2, '0');
  c.bytes = hex;
}
process.stdout.write(JSON.stringify(cases, null, 0).replace(/\},\{/g, '},\n{') + '\n');
