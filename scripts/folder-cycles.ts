/**
 * Folder-level cycles: folder A imports folder B while B imports A back, even
 * when no single module cycle exists. Reads dependency-cruiser's JSON on stdin
 * (`depcruise src packages/graph-emulator/src --output-type json`), collapses
 * each module to its unit under one of the roots below, and reports every
 * strongly connected group of units with one example import per edge.
 *
 * Exits 1 on a cycle, or 0 with --warn-only (printed as warnings).
 */
const warnOnly = process.argv.includes('--warn-only');

/** The part of dependency-cruiser's JSON output read here. */
interface CruiseOutput {
  modules: { source: string; dependencies: { resolved: string; dependencyTypes?: string[] }[] }[];
}

interface Root {
  dir: string;
  /**
   * Files directly in the app's src/ (context.ts, app.ts) are the top that
   * folders may use, and are left out. The emulator's top-level files
   * (errors.ts, respond.ts, random.ts) are modules like its folders, so each
   * is a unit of its own.
   */
  topFilesAreUnits: boolean;
  /**
   * `import type` is erased at compile time, so it closes no cycle at run
   * time: the emulator's types.ts, seed.ts and context.ts are imported for
   * types by the modules they are built from.
   */
  runtimeOnly: boolean;
}

const ROOTS: Root[] = [
  { dir: 'src/', topFilesAreUnits: false, runtimeOnly: false },
  { dir: 'packages/graph-emulator/src/', topFilesAreUnits: true, runtimeOnly: true },
];

type Edges = Map<string, Map<string, string>>;

function unitOf(source: string): { unit: string; root: Root } | undefined {
  const root = ROOTS.find((r) => source.startsWith(r.dir));
  if (root === undefined) return undefined;
  const rest = source.slice(root.dir.length);
  const folder = /^([^/]+)\/./.exec(rest);
  if (folder) return { unit: `${root.dir}${folder[1]}`, root };
  return root.topFilesAreUnits ? { unit: `${root.dir}${rest}`, root } : undefined;
}

function main(input: string): number {
  const { modules } = JSON.parse(input) as CruiseOutput;
  /** folder → folder → first import seen ("from → to"), for the report */
  const edges: Edges = new Map();
  for (const mod of modules) {
    const source = unitOf(mod.source);
    if (source === undefined) continue;
    const from = source.unit;
    for (const dep of mod.dependencies) {
      if (source.root.runtimeOnly && dep.dependencyTypes?.includes('type-only') === true) continue;
      const to = unitOf(dep.resolved)?.unit;
      if (to === undefined || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const out = edges.get(from)!;
      if (!out.has(to)) out.set(to, `${mod.source} → ${dep.resolved}`);
    }
  }

  const groups = stronglyConnected(
    [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])],
    edges,
  );
  const cycles = groups.filter((g) => g.length > 1);
  if (cycles.length === 0) {
    console.log(`✔ no folder cycles in ${ROOTS.map((r) => r.dir).join(', ')}`);
    return 0;
  }
  const label = warnOnly ? 'warn' : 'error';
  for (const group of cycles) {
    console.log(`  ${label} folder-cycle: ${group.join(' ↔ ')}`);
    for (const from of group) {
      for (const [to, example] of edges.get(from) ?? []) {
        if (group.includes(to)) console.log(`      ${from} → ${to}  (e.g. ${example})`);
      }
    }
  }
  console.log(
    `\n${warnOnly ? '!' : 'x'} ${cycles.length} folder cycle(s)${warnOnly ? ' (warnings only: --warn-only)' : ''}`,
  );
  return warnOnly ? 0 : 1;
}

/** Tarjan's algorithm; each group sorted for a stable report. */
function stronglyConnected(nodes: string[], edges: Edges): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of (edges.get(v) ?? new Map<string, unknown>()).keys()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      groups.push(group.sort());
    }
  };
  for (const v of nodes.sort()) if (!index.has(v)) visit(v);
  return groups;
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => (input += chunk));
process.stdin.on('end', () => {
  process.exitCode = main(input);
});
