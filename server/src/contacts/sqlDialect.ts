import { POSTGRES_CONTACT_BULK, SQLITE_CONTACT_BULK, type ContactBulkStore } from './bulkStore';

/**
 * Where contact queries differ between the databases, as a value chosen once in the container:
 * the domain rules (segments, search) never ask which database they run on.
 */
export interface ContactSqlDialect {
  /** A case-insensitive "contains" test of `column` against one bound `%pattern%` (escaped with `\`). */
  containsSql(column: string): string;
  /** The bulk writes of imports and the bulk API (bulkStore.ts). */
  bulk: ContactBulkStore;
}

/** SQLite's LIKE already ignores the case of ASCII letters. */
export const SQLITE_CONTACT_SQL: ContactSqlDialect = {
  containsSql: (column) => `${column} like ? escape '\\'`,
  bulk: SQLITE_CONTACT_BULK,
};

export const POSTGRES_CONTACT_SQL: ContactSqlDialect = {
  containsSql: (column) => `${column} ilike ? escape '\\'`,
  bulk: POSTGRES_CONTACT_BULK,
};

/** `%text%` with LIKE's wildcards in the text taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
