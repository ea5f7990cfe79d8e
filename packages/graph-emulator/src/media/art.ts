/**
 * The seed's pictures, drawn as SVG: warm, photo-like still lifes (a table,
 * soft shadows, film grain, a vignette) of bread, coffee and a repaired radio,
 * with no network and nothing to install. Each scene is drawn for the size
 * its URL names, so an image is exactly as wide and high as the Graph answer
 * says it is.
 */
import { baguette, bun, croissant, cup, gear, loaf, radio, silhouette, wheat, type Rand } from './shapes';

/** A scene draws into a viewBox 1000 wide and `h` high. */
type Scene = (h: number, rand: Rand) => string;

interface Surface {
  /** Light and dark of the table or wall. */
  base: [string, string];
  /** Wood grain (stretched noise) or linen (fine noise). */
  texture: 'wood' | 'linen' | 'plain';
}

const OAK: Surface = { base: ['#c8965f', '#7a4d28'], texture: 'wood' };
const WALNUT: Surface = { base: ['#7b5236', '#2e1b10'], texture: 'wood' };
const LINEN: Surface = { base: ['#efe4d2', '#bfa98a'], texture: 'linen' };
const BENCH: Surface = { base: ['#6f7d73', '#27302b'], texture: 'wood' };

function surface(h: number, s: Surface): string {
  const grain =
    s.texture === 'plain'
      ? ''
      : `<filter id="t" x="0" y="0" width="1" height="1"><feTurbulence type="fractalNoise" baseFrequency="${
          s.texture === 'wood' ? '0.003 0.09' : '0.35'
        }" numOctaves="3" seed="7"/><feColorMatrix values="0 0 0 0 0.25 0 0 0 0 0.14 0 0 0 0 0.05 0 0 0 ${
          s.texture === 'wood' ? '0.55' : '0.25'
        } 0"/></filter><rect width="1000" height="${h}" filter="url(#t)"/>`;
  return (
    `<defs><linearGradient id="b" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="${s.base[0]}"/>` +
    `<stop offset="1" stop-color="${s.base[1]}"/></linearGradient></defs><rect width="1000" height="${h}" fill="url(#b)"/>${grain}`
  );
}

/** Light from the top left, a vignette and a little film grain: what makes it read as a photo. */
function finish(h: number): string {
  return (
    `<defs><radialGradient id="v" cx="0.4" cy="0.35" r="0.85"><stop offset="0.45" stop-color="#000" stop-opacity="0"/>` +
    `<stop offset="1" stop-color="#000" stop-opacity="0.5"/></radialGradient>` +
    `<radialGradient id="l" cx="0.2" cy="0.1" r="0.7"><stop offset="0" stop-color="#fff6e0" stop-opacity="0.35"/>` +
    `<stop offset="1" stop-color="#fff6e0" stop-opacity="0"/></radialGradient>` +
    `<filter id="n" x="0" y="0" width="1" height="1"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" seed="3"/>` +
    `<feColorMatrix type="saturate" values="0"/><feComponentTransfer><feFuncA type="linear" slope="0.12"/></feComponentTransfer></filter></defs>` +
    `<rect width="1000" height="${h}" fill="url(#l)"/><rect width="1000" height="${h}" fill="url(#v)"/>` +
    `<rect width="1000" height="${h}" filter="url(#n)"/>`
  );
}

/** The subject, drawn for a 1000×1000 frame around (0, 0), fitted to the picture. */
function centred(h: number, body: string, scale = 1, dx = 0, dy = 0): string {
  const s = (Math.min(1000, h) / 1000) * scale;
  return `<g transform="translate(${500 + dx * s} ${h / 2 + dy * s}) scale(${s.toFixed(3)})">${body}</g>`;
}

function still(s: Surface, draw: (rand: Rand) => string, scale = 1): Scene {
  return (h, rand) => surface(h, s) + centred(h, draw(rand), scale) + finish(h);
}

/** A round loaf's crumbs and flour on the board. */
function crumbs(rand: Rand, n: number, spread: number, colour: string): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    const a = rand() * Math.PI * 2;
    const r = spread * (0.6 + rand() * 0.5);
    out += `<circle cx="${(Math.cos(a) * r).toFixed(0)}" cy="${(Math.sin(a) * r * 0.8).toFixed(0)}" r="${(3 + rand() * 7).toFixed(1)}" fill="${colour}"/>`;
  }
  return out;
}

/** A row of loaves on a shelf: the bakery's cover. */
function shelves(h: number, rand: Rand): string {
  let out = surface(h, { base: ['#e8c999', '#8a5a32'], texture: 'plain' });
  const rows = h < 500 ? 1 : 2;
  for (let r = 0; r < rows; r++) {
    const y = (h / (rows + 1)) * (r + 1) + 30;
    out += `<rect x="0" y="${y + 38}" width="1000" height="22" fill="#5b3a1f"/><rect x="0" y="${y + 60}" width="1000" height="10" fill="#000" opacity="0.25"/>`;
    for (let i = 0; i < 5; i++) {
      const x = 100 + i * 200 + (rand() - 0.5) * 16;
      const rye = i % 2 !== r % 2;
      out += `<g transform="translate(${x.toFixed(0)} ${y - 20}) scale(0.28)">${rye ? loaf(rand, '#6e4526', '#3e2512') : loaf(rand)}</g>`;
    }
  }
  return out + finish(h);
}

/** The café's cover: two cups and a croissant on walnut. */
function cafeTable(h: number, rand: Rand): string {
  return (
    surface(h, WALNUT) +
    centred(h, `<g transform="translate(-260 20) scale(0.7)">${cup('#6b3e1f', true)}</g>`, 1.3) +
    centred(h, `<g transform="translate(230 -10) scale(0.62)">${cup('#3b2113', false)}</g>`, 1.3) +
    centred(h, `<g transform="translate(0 150) scale(0.45) rotate(-12)">${croissant()}</g>`, 1.3) +
    centred(h, crumbs(rand, 10, 320, '#d9a45a'), 1.3) +
    finish(h)
  );
}

/** Scenes by name; a URL names one of these and a size. */
export const SCENES: Readonly<Record<string, Scene>> = {
  sourdough: still(OAK, (r) => `${crumbs(r, 14, 330, '#f4ead8')}${loaf(r)}`),
  rye: still(LINEN, (r) => `${crumbs(r, 10, 320, '#6b4426')}${loaf(r, '#6e4526', '#3e2512')}`),
  croissants: still(
    LINEN,
    () =>
      `<g transform="translate(-190 -90) rotate(-18) scale(0.75)">${croissant()}</g>` +
      `<g transform="translate(200 -40) rotate(22) scale(0.7)">${croissant()}</g>` +
      `<g transform="translate(0 200) rotate(4) scale(0.8)">${croissant()}</g>`,
  ),
  'cinnamon-buns': still(OAK, () =>
    [
      [-170, -150],
      [170, -150],
      [-170, 190],
      [170, 190],
    ]
      .map(([x, y], i) => `<g transform="translate(${x} ${y}) rotate(${i * 40}) scale(0.8)">${bun()}</g>`)
      .join(''),
  ),
  focaccia: still(
    WALNUT,
    (r) =>
      `<rect x="-380" y="-300" width="760" height="600" rx="60" fill="#000" opacity="0.35" filter="url(#s)"/>` +
      `<defs><filter id="s"><feGaussianBlur stdDeviation="18"/></filter><radialGradient id="f" cx="0.4" cy="0.35"><stop offset="0" stop-color="#f2c46b"/><stop offset="1" stop-color="#b9782f"/></radialGradient></defs>` +
      `<rect x="-400" y="-320" width="760" height="600" rx="60" fill="url(#f)"/>${crumbs(r, 40, 260, '#3f6a24')}`,
  ),
  baguettes: still(LINEN, () =>
    [-170, 0, 170].map((y, i) => `<g transform="translate(0 ${y})">${baguette(-6 + i * 6)}</g>`).join(''),
  ),
  coffee: still(WALNUT, (r) => `${crumbs(r, 8, 360, '#3b2113')}${cup('#6b3e1f', true)}`),
  espresso: still(OAK, () => cup('#2c170b', false), 0.85),
  radio: still(BENCH, () => radio('#8a5a32'), 1),
  'radio-inside': still(
    BENCH,
    () => `${radio('#5e3b1e', true)}<g transform="translate(330 300) scale(0.35)">${gear('#b8b2a2')}</g>`,
  ),
  bench: still(
    BENCH,
    () =>
      `<g transform="translate(-180 0) scale(0.9)">${gear('#c9c2b0')}</g><g transform="translate(230 120) scale(0.55)">${gear('#a48a4f')}</g>`,
  ),
  'bakery-cover': shelves,
  'cafe-cover': cafeTable,
  'repair-cover': (h, r) =>
    surface(h, BENCH) +
    centred(
      h,
      `<g transform="translate(-220 0) scale(0.8)">${radio('#8a5a32')}</g><g transform="translate(330 40) scale(0.5)">${gear('#c9c2b0')}</g>`,
      1.2,
    ) +
    centred(h, crumbs(r, 12, 420, '#9a9a8a'), 1.2) +
    finish(h),
  'bakery-logo': (h) => logo(h, '#f3dcb2', '#9c5a23', wheat('#9c5a23')),
  'cafe-logo': (h) => logo(h, '#1f5f5b', '#f3e6cf', `<g transform="scale(0.8)">${cup('#6b3e1f', true)}</g>`),
  'repair-logo': (h) => logo(h, '#22313f', '#e7b75f', gear('#e7b75f')),
  silhouette: (h) => `<rect width="1000" height="${h}" fill="#c9ccd1"/>${centred(h, silhouette('#f0f2f5'))}`,
};

function logo(h: number, bg: string, ring: string, body: string): string {
  return (
    `<rect width="1000" height="${h}" fill="${bg}"/>` +
    centred(h, `<circle r="430" fill="none" stroke="${ring}" stroke-width="26" opacity="0.8"/>${body}`, 1) +
    finish(h)
  );
}

/** Largest side a URL may ask for (the provider's biggest feed picture is 720 wide; covers are wider). */
export const MAX_SIDE = 2048;

/** The SVG of `scene` at exactly width × height, or undefined for an unknown scene. */
export function drawScene(scene: string, width: number, height: number): string | undefined {
  const draw = Object.hasOwn(SCENES, scene) ? SCENES[scene] : undefined;
  if (draw === undefined) return undefined;
  const h = Math.round((1000 * height) / width);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1000 ${h}" preserveAspectRatio="none">` +
    `${draw(h, seeded(scene))}</svg>`
  );
}

/** A fixed stream of numbers per scene name: the same picture every time. */
function seeded(name: string): Rand {
  let x = 2166136261;
  for (const ch of name) x = Math.imul(x ^ ch.charCodeAt(0), 16777619) >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 4294967296;
  };
}
