/**
 * Lets `node -r ./test/session/support/register-ts.js src/server.ts` run the
 * TypeScript sources directly (type-stripping only, via the compiler's
 * transpileModule), so the process tests start the real server without a
 * build step that would race with other builds of dist/.
 */
const fs = require('node:fs');
const ts = require('typescript');

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
