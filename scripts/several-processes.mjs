// The API files that start server processes of their own or busy loops beside them: `npm test`
// (scripts/test.mjs) and the Node.js 24 pass (scripts/test-node24.mjs) run them one at a time, in
// a step of their own. Two of them at once on two cores (three instances beside a crash and
// restart, with six busy loops) made the crash test miss its recovery deadline.
export const SEVERAL_PROCESSES = ['three-instances', 'crash-recovery', 'connection-resets', 'two-instances', 'scale-out', 'campaigns'].map((name) => `tests/api/${name}.test.ts`);
