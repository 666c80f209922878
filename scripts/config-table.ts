// Prints the README's configuration table from server/src/config.ts: `npx tsx scripts/config-table.ts`.
import { describeConfig } from '../server/src/config';

console.log('| Variable | Default | Meaning |');
console.log('|---|---|---|');
for (const { name, defaultValue, doc } of describeConfig()) {
  console.log(`| \`${name}\` | ${defaultValue ? `\`${defaultValue}\`` : '—'} | ${doc} |`);
}
