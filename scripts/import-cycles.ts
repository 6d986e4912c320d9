/**
 * `tsx scripts/import-cycles.ts [--types]`: lists the import circles in src, bench and scripts, between files and
 * between the capability folders of src/domain, and exits 1 when there is one. Biome's noImportCycles (biome.json)
 * keeps files free of circles as they are written; this adds the folders, which Biome does not see: a capability may
 * use another only if that one does not use it back, however indirectly (docs/architecture.md, "Capabilities").
 * Type-only imports are left out, as Biome leaves them out (the compiler erases them), unless `--types` is given.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** One file's import of another: both paths relative to the root, and whether only types are imported. */
export interface ImportEdge { from: string; to: string; typeOnly: boolean }

/**
 * The relative imports (and re-exports, and dynamic `import()`s of a literal path) of every .ts and .tsx file under
 * `dirs`. Read with a pattern over statements that open a line, which is how every file here writes them (the
 * TypeScript 7 package has no parser to call from JavaScript).
 */
export function importEdges(root: string, dirs: string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of dirs.flatMap((dir) => sourceFiles(root, dir))) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const add = (specifier: string, typeOnly: boolean) => {
      if (specifier.startsWith('.')) edges.push({ from: file, to: path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)), typeOnly });
    };
    for (const m of text.matchAll(STATIC_IMPORT)) add(m[4]!, m[2] !== undefined || onlyTypeNames(m[3]));
    for (const m of text.matchAll(DYNAMIC_IMPORT)) add(m[1]!, false);
  }
  return edges;
}

/** `import …/export … from '…'` and `import '…'` at the start of a line; groups: keyword, `type`, the names, the path. */
const STATIC_IMPORT = /^(import|export)\s+(type\s+)?(?:([^;'"]*?)\s+from\s+)?'([^']+)'/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*'([^']+)'\s*\)/g;

/** True for `{ type A, type B }`: every named import marked as a type, so the compiler erases the import. */
function onlyTypeNames(names: string | undefined): boolean {
  const braces = names?.trim().match(/^\{([\s\S]*)\}$/);
  if (!braces) return false;
  const items = braces[1]!.split(',').map((s) => s.trim()).filter(Boolean);
  return items.length > 0 && items.every((i) => i.startsWith('type '));
}

function sourceFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')))
    .sort();
}

/** The strongly connected groups of more than one node (or a node importing itself): each is a circle. */
export function circles(edges: Array<{ from: string; to: string }>): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, new Set());
    if (!next.has(e.to)) next.set(e.to, new Set());
    next.get(e.from)!.add(e.to);
  }
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; children: Iterator<string> }> = [];
    const open = (node: string) => {
      index.set(node, index.size);
      low.set(node, index.get(node)!);
      stack.push(node);
      onStack.add(node);
      work.push({ node, children: next.get(node)!.values() });
    };
    open(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const child = top.children.next();
      if (!child.done) {
        if (!index.has(child.value)) open(child.value);
        else if (onStack.has(child.value)) low.set(top.node, Math.min(low.get(top.node)!, index.get(child.value)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== top.node);
      if (group.length > 1 || next.get(top.node)!.has(top.node)) found.push(group.sort());
    }
  }
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * The capability a file of src/domain belongs to (its folder), `domain` for the files every capability shares
 * (caller.ts, api-error.ts, views.ts, service-deps.ts), undefined outside src/domain.
 */
export function capabilityOf(file: string): string | undefined {
  const m = /^src\/domain\/(?:([^/]+)\/)?[^/]+$/.exec(file);
  if (!m) return undefined;
  return m[1] ?? 'domain';
}

/** The imports from one capability folder of src/domain to another, one edge per pair, with a file import behind it. */
export function capabilityEdges(edges: ImportEdge[]): Array<{ from: string; to: string; via: string }> {
  const seen = new Map<string, { from: string; to: string; via: string }>();
  for (const e of edges) {
    const from = capabilityOf(e.from);
    const to = capabilityOf(e.to);
    if (!from || !to || from === to) continue;
    const key = `${from}>${to}`;
    if (!seen.has(key)) seen.set(key, { from, to, via: `${e.from} → ${e.to}` });
  }
  return [...seen.values()];
}

/** Checked by default: what the server, the benches and the scripts load. */
export const CHECKED_DIRS = ['src', 'bench', 'scripts'];

function main(): void {
  const withTypes = process.argv.includes('--types');
  const edges = importEdges(ROOT, CHECKED_DIRS).filter((e) => withTypes || !e.typeOnly);
  const fileCircles = circles(edges);
  const folderEdges = capabilityEdges(edges);
  const folderCircles = circles(folderEdges);
  for (const c of fileCircles) console.log(`files: ${c.join(' ↔ ')}`);
  for (const c of folderCircles) {
    console.log(`capabilities: ${c.join(' ↔ ')}`);
    for (const e of folderEdges.filter((f) => c.includes(f.from) && c.includes(f.to))) console.log(`  ${e.from} → ${e.to} (${e.via})`);
  }
  if (fileCircles.length + folderCircles.length === 0) console.log(`no import circles${withTypes ? ', type imports included' : ''}`);
  process.exitCode = fileCircles.length + folderCircles.length === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
