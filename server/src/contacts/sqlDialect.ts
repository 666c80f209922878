import { POSTGRES_CONTACT_BULK, SQLITE_CONTACT_BULK, type ContactBulkStore } from './bulkStore';

/**
 * Where contact queries differ between the databases, as a value chosen once in the container:
 * the domain rules (segments, search) never ask which database they run on.
 */
export interface ContactSqlDialect {
  /** A case-insensitive "contains" test of `column` against one bound `%pattern%` (escaped with `\`). */
  containsSql(column: string): string;
  /** A case-sensitive test that `column` holds one bound text somewhere: true where it does. */
  holdsSql(column: string): string;
  /** The `tag_list` of the contacts row `contacts` names, from its `contact_tags` (see {@link tagListValue}). */
  tagListSql: string;
  /** The bulk writes of imports and the bulk API (bulkStore.ts). */
  bulk: ContactBulkStore;
}

/** SQLite's LIKE already ignores the case of ASCII letters. */
export const SQLITE_CONTACT_SQL: ContactSqlDialect = {
  containsSql: (column) => `${column} like ? escape '\\'`,
  holdsSql: (column) => `instr(${column}, ?) > 0`,
  tagListSql: `coalesce('|' || (select group_concat(replace(replace(t.tag, '%', '%25'), '|', '%7C'), '|') from contact_tags t where t.contact_id = contacts.id) || '|', '')`,
  bulk: SQLITE_CONTACT_BULK,
};

/**
 * PostgreSQL's ILIKE folds the pattern's case again for every row it tests; folding the column
 * and matching with LIKE folds the pattern once, and scans about twice as fast.
 */
export const POSTGRES_CONTACT_SQL: ContactSqlDialect = {
  containsSql: (column) => `lower(${column}) like lower(?) escape '\\'`,
  holdsSql: (column) => `strpos(${column}, ?) > 0`,
  tagListSql: `coalesce('|' || (select string_agg(replace(replace(t.tag, '%', '%25'), '|', '%7C'), '|') from contact_tags t where t.contact_id = contacts.id) || '|', '')`,
  bulk: POSTGRES_CONTACT_BULK,
};

/** `%text%` with LIKE's wildcards in the text taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** A tag as `tag_list` holds it: `%` and the `|` between tags written as `%25` and `%7C`. */
const encodedTag = (tag: string): string => tag.replace(/%/g, '%25').replace(/\|/g, '%7C');

/** What `tag_list` holds for a contact with these tags: `|a|b|`, or empty for none. */
export function tagListValue(tags: Iterable<string>): string {
  const list = [...new Set(tags)].map(encodedTag);
  return list.length === 0 ? '' : `|${list.join('|')}|`;
}

/** The text a `tag_list` holds exactly where its contact has this tag. */
export const tagListNeedle = (tag: string): string => `|${encodedTag(tag)}|`;
