import { Model, type Pojo } from 'objection';

/**
 * Columns are snake_case in the database and camelCase in code (knexSnakeCaseMappers). Timestamps come back as Date
 * from PostgreSQL and as ISO strings from SQLite; models always hold Date and always write ISO
 * strings (better-sqlite3 cannot bind a Date). SQLite returns booleans as 0/1.
 */
export class BaseModel extends Model {
  static timestampAttributes: readonly string[] = [];
  static booleanAttributes: readonly string[] = [];

  override $parseDatabaseJson(json: Pojo): Pojo {
    const parsed = super.$parseDatabaseJson(json);
    const model = this.constructor as typeof BaseModel;
    for (const key of model.timestampAttributes) {
      const value = parsed[key];
      if (value !== null && value !== undefined && !(value instanceof Date)) parsed[key] = new Date(value as string);
    }
    for (const key of model.booleanAttributes) {
      const value = parsed[key];
      if (typeof value === 'number') parsed[key] = value !== 0;
    }
    return parsed;
  }

  override $formatDatabaseJson(json: Pojo): Pojo {
    const model = this.constructor as typeof BaseModel;
    for (const key of model.timestampAttributes) {
      const value = json[key];
      if (value instanceof Date) json[key] = value.toISOString();
    }
    return super.$formatDatabaseJson(json);
  }
}

/** A timestamp read by a raw knex query (not through a model). */
export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}
