// Where the browser suite finds Chromium, and the one line it prints when there is none; with
// --emoji (npm run screenshots) also the colour emoji font and a Japanese font, installed when
// missing, so emoji in posts and Japanese words render as glyphs and not as empty boxes.
// Plain JS so the npm scripts can check before jest (and ts-jest) start.
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');

const DEFAULT_PATH = '/usr/bin/chromium';
const FONTS = [
  { font: 'Noto Color Emoji', pkg: 'fonts-noto-color-emoji', why: 'emoji in posts' },
  { font: 'IPAGothic', pkg: 'fonts-ipafont-gothic', why: 'the Japanese page view' },
];

/** The Chromium executable to drive: $CHROMIUM_PATH, else the Debian package's. */
function chromiumPath() {
  return process.env.CHROMIUM_PATH || DEFAULT_PATH;
}

/** A one-line reason when Chromium cannot be used, else undefined. */
function chromiumProblem() {
  const file = chromiumPath();
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return undefined;
  } catch {
    return (
      `browser tests: Chromium not found at ${file}` +
      (process.env.CHROMIUM_PATH ? ' (from CHROMIUM_PATH)' : '') +
      ' — install it with `apt-get update && apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary'
    );
  }
}

/** Whether fontconfig (which Chromium uses on Linux) knows `font`. */
function hasFont(font) {
  const list = spawnSync('fc-list', [], { encoding: 'utf8' });
  return list.status === 0 && list.stdout.toLowerCase().includes(font.toLowerCase());
}

function aptGet(args) {
  return spawnSync('apt-get', args, { stdio: 'inherit' }).status === 0;
}

/**
 * Installs the fonts the screenshots need when one is missing: the colour emoji (posts) and a
 * Japanese font (the Japanese page view; Arabic is in the default fonts). As root with apt-get
 * (updating the package lists first only when the package is not found in them); otherwise a
 * one-line reason that says what to run. Returns that reason, or undefined when all are there.
 */
function ensureFonts() {
  for (const { font, pkg, why } of FONTS) {
    if (hasFont(font)) continue;
    const command = `apt-get update && apt-get install -y ${pkg}`;
    if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
      return `screenshots: the "${font}" font is missing and this is not root — run \`sudo ${command.replace('&& ', '&& sudo ')}\`, then again`;
    }
    process.stdout.write(`screenshots: installing ${pkg} (${why})\n`);
    const installed =
      aptGet(['install', '-y', '--no-install-recommends', pkg]) ||
      (aptGet(['update']) && aptGet(['install', '-y', '--no-install-recommends', pkg]));
    if (!installed || !hasFont(font)) return `screenshots: could not install ${pkg} — run \`${command}\``;
  }
  return undefined;
}

module.exports = { chromiumPath, chromiumProblem, ensureFonts };

if (require.main === module) {
  const problem = chromiumProblem() || (process.argv.includes('--emoji') ? ensureFonts() : undefined);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
