/**
 * The subjects of the seed's pictures, each drawn around (0, 0) in a
 * 1000×1000 frame with its own soft shadow. Gradient ids carry the colours
 * they use, so two subjects in one picture never share one by mistake.
 */
export type Rand = () => number;

const id = (kind: string, colour: string): string => `${kind}${colour.replace('#', '')}`;

/** A blurred ellipse under a subject. */
function shadow(rx: number, ry: number, dx = 30, dy = 40): string {
  return (
    `<defs><filter id="sh" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="22"/></filter></defs>` +
    `<ellipse cx="${dx}" cy="${dy}" rx="${rx}" ry="${ry}" fill="#1a0d05" opacity="0.45" filter="url(#sh)"/>`
  );
}

/** A round, scored, flour-dusted loaf. */
export function loaf(rand: Rand, crust = '#c7772f', dark = '#7a3d12'): string {
  const g = id('loaf', crust);
  let score = '';
  for (let i = -2; i <= 2; i++) {
    const y = i * 70 + (rand() - 0.5) * 14;
    score += `<path d="M ${-230 + Math.abs(i) * 40} ${y} Q 0 ${y - 50} ${230 - Math.abs(i) * 40} ${y}" stroke="#f3dfb9" stroke-width="16" fill="none" stroke-linecap="round" opacity="0.85"/>`;
  }
  return (
    shadow(330, 250) +
    `<defs><radialGradient id="${g}" cx="0.38" cy="0.32" r="0.75"><stop offset="0" stop-color="#f0b66a"/>` +
    `<stop offset="0.55" stop-color="${crust}"/><stop offset="1" stop-color="${dark}"/></radialGradient></defs>` +
    `<ellipse rx="330" ry="260" fill="url(#${g})"/>${score}` +
    `<ellipse cx="-90" cy="-110" rx="150" ry="60" fill="#fff8ea" opacity="0.18"/>`
  );
}

/** A croissant: overlapping crescents, darker to the tips. */
export function croissant(): string {
  const parts = [
    [0, 0, 120, 150, '#d98a3a'],
    [-140, 30, 95, 115, '#c97a2c'],
    [140, 30, 95, 115, '#c97a2c'],
    [-250, 80, 70, 80, '#a95f1e'],
    [250, 80, 70, 80, '#a95f1e'],
  ] as const;
  return (
    shadow(330, 150, 20, 90) +
    `<defs><linearGradient id="cr" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff0c8" stop-opacity="0.55"/>` +
    `<stop offset="1" stop-color="#fff0c8" stop-opacity="0"/></linearGradient></defs>` +
    parts
      .map(
        ([x, y, rx, ry, c]) =>
          `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="${c}"/><ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="url(#cr)"/>` +
          `<path d="M ${x - rx * 0.7} ${y - ry * 0.4} Q ${x} ${y + ry * 0.2} ${x + rx * 0.7} ${y - ry * 0.4}" stroke="#8a4a14" stroke-width="6" fill="none" opacity="0.5"/>`,
      )
      .join('')
  );
}

/** A cinnamon roll from above: a spiral of dough and spice, a little icing. */
export function bun(): string {
  let spiral = 'M 0 0';
  for (let a = 0; a < Math.PI * 8; a += 0.3) {
    const r = 8 + a * 8.5;
    spiral += ` L ${(Math.cos(a) * r).toFixed(1)} ${(Math.sin(a) * r).toFixed(1)}`;
  }
  return (
    shadow(190, 170, 20, 30) +
    `<circle r="200" fill="#d4924a"/><path d="${spiral}" stroke="#7a3f17" stroke-width="16" fill="none" stroke-linecap="round"/>` +
    `<path d="M -120 -60 Q -20 -140 110 -80 Q 40 0 -60 40" stroke="#fbf3e4" stroke-width="18" fill="none" stroke-linecap="round" opacity="0.85"/>`
  );
}

/** A baguette lying across the frame, slashed along its length. */
export function baguette(tilt = 0): string {
  let slashes = '';
  for (let x = -300; x <= 300; x += 120) {
    slashes += `<path d="M ${x - 45} 22 Q ${x} -20 ${x + 50} -26" stroke="#f1d39c" stroke-width="14" fill="none" stroke-linecap="round"/>`;
  }
  return (
    `<g transform="rotate(${tilt})">${shadow(430, 60, 20, 50)}` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e8a85a"/>` +
    `<stop offset="1" stop-color="#9a5520"/></linearGradient></defs>` +
    `<rect x="-440" y="-70" width="880" height="140" rx="70" fill="url(#bg)"/>${slashes}</g>`
  );
}

/** A cup and saucer from above; `art` adds a latte heart, otherwise dark espresso. */
export function cup(coffee: string, art: boolean): string {
  const g = id('cof', coffee);
  return (
    shadow(330, 300, 40, 50) +
    `<circle r="330" fill="#f4efe6"/><circle r="300" fill="none" stroke="#d8cfbf" stroke-width="6"/>` +
    `<rect x="170" y="-40" width="190" height="80" rx="40" fill="#ece5d8"/>` +
    `<circle r="210" fill="#faf7f1"/>` +
    `<defs><radialGradient id="${g}" cx="0.45" cy="0.4"><stop offset="0" stop-color="${coffee}"/>` +
    `<stop offset="1" stop-color="#1f0f06"/></radialGradient></defs><circle r="175" fill="url(#${g})"/>` +
    (art
      ? `<path d="M 0 70 C -120 -10 -90 -110 -30 -100 C 0 -95 0 -60 0 -50 C 0 -60 0 -95 30 -100 C 90 -110 120 -10 0 70 Z" fill="#f1e2c8" opacity="0.92"/>`
      : `<ellipse cx="-40" cy="-50" rx="70" ry="40" fill="#c08a52" opacity="0.45"/>`) +
    `<ellipse cx="-80" cy="-120" rx="60" ry="20" fill="#fff" opacity="0.25"/>`
  );
}

/** A mended 1950s radio: a wooden case, a cloth grille, a tuning dial and two knobs. */
export function radio(wood: string, open = false): string {
  let grille = '';
  for (let y = -150; y <= 150; y += 22)
    grille += `<line x1="-330" y1="${y}" x2="-20" y2="${y}" stroke="#3a2a1a" stroke-width="6" opacity="0.5"/>`;
  return (
    shadow(430, 280, 30, 60) +
    `<defs><linearGradient id="rw" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${wood}"/><stop offset="1" stop-color="#3d2412"/></linearGradient></defs>` +
    `<rect x="-420" y="-280" width="840" height="560" rx="70" fill="url(#rw)"/>` +
    `<rect x="-360" y="-200" width="370" height="400" rx="30" fill="${open ? '#2b2b25' : '#c9b48a'}"/>${open ? '' : grille}` +
    (open
      ? `<circle cx="-250" cy="-60" r="55" fill="#d8b36a"/><circle cx="-110" cy="60" r="40" fill="#8fb2c2"/><rect x="-300" y="80" width="120" height="60" fill="#6d8f4e"/>`
      : '') +
    `<rect x="60" y="-200" width="300" height="150" rx="20" fill="#f1e6c6"/>` +
    [90, 150, 210, 270, 330]
      .map((x) => `<line x1="${x}" y1="-180" x2="${x}" y2="-140" stroke="#5a4630" stroke-width="5"/>`)
      .join('') +
    `<line x1="190" y1="-195" x2="190" y2="-55" stroke="#b3261e" stroke-width="6"/>` +
    `<circle cx="130" cy="100" r="70" fill="#2b1a0e"/><circle cx="130" cy="100" r="50" fill="#5c3b22"/>` +
    `<circle cx="290" cy="100" r="70" fill="#2b1a0e"/><circle cx="290" cy="100" r="50" fill="#5c3b22"/>` +
    `<rect x="-420" y="-280" width="840" height="60" rx="30" fill="#fff" opacity="0.12"/>`
  );
}

/** A brass or steel gear. */
export function gear(metal: string): string {
  let teeth = '';
  for (let i = 0; i < 12; i++) {
    teeth += `<rect x="-45" y="-330" width="90" height="110" rx="12" fill="${metal}" transform="rotate(${i * 30})"/>`;
  }
  return (
    shadow(300, 300, 25, 35) +
    `${teeth}<circle r="250" fill="${metal}"/><circle r="250" fill="none" stroke="#000" stroke-opacity="0.2" stroke-width="10"/>` +
    `<circle r="90" fill="#1c1c1c" opacity="0.85"/><circle cx="-80" cy="-90" r="110" fill="#fff" opacity="0.15"/>`
  );
}

/** A stalk of wheat: the bakery's mark. */
export function wheat(colour: string): string {
  let grains = '';
  for (let i = 0; i < 6; i++) {
    const y = -260 + i * 80;
    grains += `<ellipse cx="-55" cy="${y}" rx="40" ry="70" transform="rotate(-30 -55 ${y})" fill="${colour}"/>`;
    grains += `<ellipse cx="55" cy="${y}" rx="40" ry="70" transform="rotate(30 55 ${y})" fill="${colour}"/>`;
  }
  return `<path d="M 0 -340 L 0 330" stroke="${colour}" stroke-width="26" stroke-linecap="round"/>${grains}<ellipse cx="0" cy="-330" rx="36" ry="70" fill="${colour}"/>`;
}

/** The provider's grey head-and-shoulders for a Page without its own picture. */
export function silhouette(fill: string): string {
  return `<circle cy="-120" r="190" fill="${fill}"/><path d="M -380 500 C -380 160 -200 90 0 90 C 200 90 380 160 380 500 Z" fill="${fill}"/>`;
}
