/** Types of scripts/local-postgres.mjs. */
export const LOCAL_POSTGRES: string;
export function localPostgresAnswers(): boolean;
