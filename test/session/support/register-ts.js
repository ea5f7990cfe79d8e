/**
 * Lets `node -r ./test/session/support/register-ts.js src/server.ts` run the
 * TypeScript sources directly (type-stripping only, via the compiler's
 * transpileModule), so the process tests start the real server without a
 * build step that would race with other builds of dist/.
 */
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const ts = require('typescript');

// The emulator package from its source too, as jest's moduleNameMapper does: no build of its dist/.
const EMULATOR = path.join(__dirname, '../../../packages/graph-emulator/src/index.ts');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, request === '@pagelight/graph-emulator' ? EMULATOR : request, ...rest);
};

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  resolveJsonModule: true,
  sourceMap: false,
  inlineSourceMap: true,
};

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
