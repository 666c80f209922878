/**
 * Import cycles among the server's and shared/'s modules, and among their folders: a module that
 * reaches itself again through its imports (type-only imports included: they still tie the files'
 * meanings together), and among the areas they sit in. Read with the TypeScript compiler's own
 * import scanner, so no dependency is needed; `server/src/importCycles.test.ts` fails on any cycle
 * between files and on any cycle between areas.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SCANNED = ['server/src', 'shared'];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '/index.ts', '/index.tsx'];

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@shared/')) base = join(ROOT, 'shared', specifier.slice('@shared/'.length));
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return null;
  const stripped = base.replace(/\.(m?js)$/, '');
  for (const candidate of [stripped, ...EXTENSIONS.map((extension) => stripped + extension)]) {
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.(ts|tsx|mts)$/.test(candidate)) return candidate;
  }
  return null;
}

/** Each scanned module's imports of other scanned modules, by path relative to the repository. */
export function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const folder of SCANNED) {
    for (const file of sourceFiles(join(ROOT, folder))) {
      const imports = new Set<string>();
      for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
        const target = resolveImport(file, imported.fileName);
        if (target && !/\.test\.tsx?$/.test(target)) imports.add(relative(ROOT, target));
      }
      graph.set(relative(ROOT, file), imports);
    }
  }
  return graph;
}

/** The graph's strongly connected parts of more than one node (or a node importing itself), each sorted. */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: [string, string[]][] = [];
    const visit = (node: string) => {
      index.set(node, next);
      low.set(node, next++);
      stack.push(node);
      onStack.add(node);
      work.push([node, [...(graph.get(node) ?? [])].filter((target) => graph.has(target))]);
    };
    visit(start);
    while (work.length > 0) {
      const top = work[work.length - 1] as [string, string[]];
      const [node, targets] = top;
      const target = targets.shift();
      if (target !== undefined) {
        if (!index.has(target)) visit(target);
        else if (onStack.has(target)) low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0]) as number, low.get(node) as number));
      if (low.get(node) === index.get(node)) {
        const part: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          part.push(member);
        } while (member !== node);
        if (part.length > 1 || graph.get(node)?.has(node)) found.push(part.sort());
      }
    }
  }
  return found;
}

/**
 * The same graph between areas: each folder directly under server/src (with everything below it)
 * is one area, each file directly in server/src its own, and shared/ one. An import from one area
 * into another is an edge between them.
 */
export function areaOf(file: string): string {
  const server = /^server\/src\/([^/]+)\//.exec(file);
  if (server) return `server/src/${server[1]}`;
  if (file.startsWith('shared/')) return 'shared';
  return file;
}

export function areaGraph(graph: ReadonlyMap<string, ReadonlySet<string>>): Map<string, Set<string>> {
  const areas = new Map<string, Set<string>>();
  for (const [file, imports] of graph) {
    const from = areaOf(file);
    const edges = areas.get(from) ?? new Set<string>();
    areas.set(from, edges);
    for (const target of imports) if (areaOf(target) !== from) edges.add(areaOf(target));
  }
  return areas;
}

/** The edges of the graph that lie on a cycle (both ends in one strongly connected part), as `from -> to`. */
export function edgesOnCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const edges: string[] = [];
  for (const part of cycles(graph)) {
    const members = new Set(part);
    for (const from of part) for (const to of graph.get(from) ?? []) if (members.has(to)) edges.push(`${from} -> ${to}`);
  }
  return edges.sort();
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const graph = importGraph();
  const files = cycles(graph);
  const areas = edgesOnCycles(areaGraph(graph));
  for (const part of files) console.log(`files: ${part.join(' <-> ')}`);
  for (const edge of areas) console.log(`areas: ${edge}`);
  process.exitCode = files.length > 0 || areas.length > 0 ? 1 : 0;
}
