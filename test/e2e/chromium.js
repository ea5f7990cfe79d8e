// Where the browser suite finds Chromium, and the one line it prints when there is none; with
// --emoji (npm run screenshots) also the colour emoji font, installed when missing, so emoji in
// posts render as pictures and not as empty boxes.
// Plain JS so the npm scripts can check before jest (and ts-jest) start.
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');

const DEFAULT_PATH = '/usr/bin/chromium';
const EMOJI_FONT = 'Noto Color Emoji';
const EMOJI_PACKAGE = 'fonts-noto-color-emoji';

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

/** Whether fontconfig (which Chromium uses on Linux) knows the colour emoji font. */
function hasEmojiFont() {
  const list = spawnSync('fc-list', [], { encoding: 'utf8' });
  return list.status === 0 && list.stdout.toLowerCase().includes(EMOJI_FONT.toLowerCase());
}

function aptGet(args) {
  return spawnSync('apt-get', args, { stdio: 'inherit' }).status === 0;
}

/**
 * Installs the emoji font when it is missing: as root with apt-get (updating the package lists
 * first only when the package is not found in them); otherwise a one-line reason that says what
 * to run. Returns that reason, or undefined when the font is there.
 */
function ensureEmojiFont() {
  if (hasEmojiFont()) return undefined;
  const command = `apt-get update && apt-get install -y ${EMOJI_PACKAGE}`;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    return `screenshots: the "${EMOJI_FONT}" font is missing and this is not root — run \`sudo ${command.replace('&& ', '&& sudo ')}\`, then again`;
  }
  process.stdout.write(`screenshots: installing ${EMOJI_PACKAGE} (emoji in posts)\n`);
  const installed =
    aptGet(['install', '-y', '--no-install-recommends', EMOJI_PACKAGE]) ||
    (aptGet(['update']) && aptGet(['install', '-y', '--no-install-recommends', EMOJI_PACKAGE]));
  if (!installed || !hasEmojiFont()) return `screenshots: could not install ${EMOJI_PACKAGE} — run \`${command}\``;
  return undefined;
}

module.exports = { chromiumPath, chromiumProblem, ensureEmojiFont };

if (require.main === module) {
  const problem = chromiumProblem() || (process.argv.includes('--emoji') ? ensureEmojiFont() : undefined);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
