import type { Knex } from 'knex';

interface StoredComponent {
  type: string;
  format?: string;
  text?: string;
  buttons?: { url?: string }[];
}

const VARIABLE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/**
 * Template variables are keyed by component now: a header's {{1}} is `header_1`, a URL
 * button's is `button_{index}_url`, the body's stay as they were. Existing templates get examples
 * under the new keys, copied from the shared name they used before, so previews and the sending
 * screens read the same values as before. Stored message values need no change: the provider
 * request falls back to the shared name when a row has no keyed value.
 */
export async function up(knex: Knex): Promise<void> {
  // The app's knex camel-cases result keys; the migration CLI's does not: both are read.
  const rows = (await knex('templates').select('id', 'components', 'variable_examples')) as { id: number; components: string; variable_examples?: string | null; variableExamples?: string | null }[];
  for (const row of rows) {
    let components: StoredComponent[];
    let examples: Record<string, string>;
    try {
      components = JSON.parse(row.components) as StoredComponent[];
      examples = JSON.parse(row.variable_examples ?? row.variableExamples ?? '{}') as Record<string, string>;
    } catch {
      continue;
    }
    const added: Record<string, string> = {};
    const header = components.find((c) => c.type === 'HEADER' && (c.format ?? 'TEXT') === 'TEXT');
    for (const match of (header?.text ?? '').matchAll(VARIABLE)) {
      const name = match[1] as string;
      const key = `header_${name}`;
      if (examples[key] === undefined && examples[name] !== undefined) added[key] = examples[name] as string;
    }
    const buttons = components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
    buttons.forEach((button, index) => {
      const name = [...(button.url ?? '').matchAll(VARIABLE)][0]?.[1];
      const key = `button_${index}_url`;
      if (name !== undefined && examples[key] === undefined && examples[name] !== undefined) added[key] = examples[name] as string;
    });
    if (Object.keys(added).length > 0) await knex('templates').where({ id: row.id }).update({ variable_examples: JSON.stringify({ ...examples, ...added }) });
  }
}

/** Irreversible on purpose: the added keys are harmless to the old code, which ignores them. */
export async function down(): Promise<void> {}
