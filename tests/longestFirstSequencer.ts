/**
 * Test files that run for minutes start first, so that the other worker works through the short
 * files beside them. Vitest orders files by their last durations when it has run them before; a
 * fresh clone (CI) has no such record and orders by file size, which may start the
 * three-instances test (about 7 minutes, most of it its unknown-send window) last and leave one
 * worker idle while it runs alone.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, from the per-file durations of a whole API run on a 2-core machine (2026-11-28). */
const LONG_RUNNING = ['tests/api/three-instances.test.ts', 'tests/api/crash-recovery.test.ts', 'tests/api/upload-sends.test.ts', 'tests/api/provider-faults.test.ts', 'tests/api/campaigns.test.ts'];

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = LONG_RUNNING.indexOf(relative(this.ctx.config.root, spec.moduleId).replaceAll('\\', '/'));
      return index === -1 ? LONG_RUNNING.length : index;
    };
    // Array.prototype.sort is stable: files of equal rank keep vitest's own order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
