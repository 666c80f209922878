import { describe, expect, it } from 'vitest';
import { areaGraph, cycles, edgesOnCycles, importGraph } from '../../scripts/importCycles';

describe('imports', () => {
  const graph = importGraph();

  it('form no cycle between files of the server or shared/', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });

  it('form no cycle between areas of the server', () => {
    expect(edgesOnCycles(areaGraph(graph))).toEqual([]);
  });

  it('are found by the check when a cycle is there', () => {
    const looped = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['a.ts'])],
    ]);
    expect(cycles(looped)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
