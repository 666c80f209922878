// The README's configuration table, from server/src/config.ts.
// `npx tsx scripts/config-table.ts` prints it; `--write` replaces it in README.md in place.
import { readFileSync, writeFileSync } from 'node:fs';
import { describeConfig } from '../server/src/config';

const START = '<!-- config-table:start -->';
const END = '<!-- config-table:end -->';

const table = [
  '| Variable | Default | Meaning |',
  '|---|---|---|',
  ...describeConfig().map(({ name, defaultValue, doc }) => `| \`${name}\` | ${defaultValue ? `\`${defaultValue}\`` : '—'} | ${doc} |`),
].join('\n');

if (process.argv.includes('--write')) {
  const readme = readFileSync('README.md', 'utf8');
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < 0) throw new Error(`README.md needs ${START} and ${END} around the table`);
  writeFileSync('README.md', `${readme.slice(0, from + START.length)}\n${table}\n${readme.slice(to)}`);
  console.log('README.md configuration table updated');
} else {
  console.log(table);
}
