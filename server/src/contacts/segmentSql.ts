import { fillMessage, messages } from '@shared/messages';
import type { TContactAttributeType, TSegmentActivity, TSegmentAttributeCondition, TSegmentFilter } from '@shared/schemas/contacts';
import { ValidationError } from '../errors';
import { containsPattern, tagListNeedle, type ContactSqlDialect } from './sqlDialect';

export interface AttributeDefinition {
  id: number;
  name: string;
  type: TContactAttributeType;
  slot: number;
}

/** The column of `contacts` that holds an attribute. */
export function attributeColumn(attribute: Pick<AttributeDefinition, 'type' | 'slot'>): string {
  return `${attribute.type}_${attribute.slot}`;
}

/** A condition on `contacts c`, with its bindings in order. */
export interface ContactCondition {
  sql: string;
  bindings: (string | number)[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A segment filter as one WHERE clause over the owner's rows of `contacts c`: attributes and tags
 * are columns of the row, and each set a condition needs from elsewhere (a campaign's messages)
 * is read once as an `in (select ...)`, never looked up per contact. So a count over a million
 * contacts is one pass over one table whatever the filter holds.
 */
export function compileSegmentFilter(
  dialect: ContactSqlDialect,
  ownerId: number,
  filter: TSegmentFilter,
  attributes: ReadonlyMap<string, AttributeDefinition>,
  now: Date,
): ContactCondition {
  const parts: ContactCondition[] = [{ sql: 'c.user_id = ?', bindings: [ownerId] }];
  // The row's own copy of its tags, so a tag condition costs a test of the row being scanned and
  // not the set of a tag's contacts, which a count would build and probe for every row.
  const tagged = (tags: readonly string[], negate: boolean): ContactCondition => {
    const tests = tags.map(() => dialect.holdsSql('c.tag_list'));
    return { sql: negate ? `not (${tests.join(' or ')})` : `(${tests.join(' or ')})`, bindings: tags.map(tagListNeedle) };
  };

  for (const tag of filter.tags_all ?? []) parts.push(tagged([tag], false));
  if (filter.tags_any?.length) parts.push(tagged(filter.tags_any, false));
  if (filter.tags_none?.length) parts.push(tagged(filter.tags_none, true));

  for (const condition of filter.attributes ?? []) {
    const attribute = attributes.get(condition.name);
    if (condition.op === 'empty') {
      // An attribute nobody has is empty for everyone.
      if (attribute) parts.push({ sql: `c.${attributeColumn(attribute)} is null`, bindings: [] });
      continue;
    }
    if (!attribute) throw ValidationError('filter.attributes', fillMessage(messages.contacts.segmentUnknownAttribute, { name: condition.name }));
    parts.push(attributeCondition(dialect, attribute, condition));
  }

  for (const activity of filter.activity ?? []) parts.push(activityCondition(ownerId, activity, now));

  if (filter.opt_in === true) parts.push({ sql: 'c.opt_in_at is not null', bindings: [] });
  if (filter.opt_in === false) parts.push({ sql: 'c.opt_in_at is null', bindings: [] });

  return { sql: parts.map((part) => part.sql).join(' and '), bindings: parts.flatMap((part) => part.bindings) };
}

function attributeCondition(dialect: ContactSqlDialect, attribute: AttributeDefinition, condition: TSegmentAttributeCondition): ContactCondition {
  const column = `c.${attributeColumn(attribute)}`;
  const value = condition.value;
  if (value === undefined || value === '') {
    throw ValidationError('filter.attributes', fillMessage(messages.contacts.segmentValueRequired, { name: condition.name }));
  }
  if (condition.op === 'contains') {
    // A number's digits are searched as written.
    const text = attribute.type === 'number' ? `cast(${column} as text)` : column;
    return { sql: dialect.containsSql(text), bindings: [containsPattern(String(value))] };
  }
  const numeric = attribute.type === 'number';
  if (numeric && !Number.isFinite(Number(value))) {
    throw ValidationError('filter.attributes', fillMessage(messages.contacts.attributeNotNumber, { name: condition.name }));
  }
  const operator = condition.op === 'eq' ? '=' : condition.op === 'before' ? '<' : '>';
  return { sql: `${column} ${operator} ?`, bindings: [numeric ? Number(value) : String(value)] };
}

function activityCondition(ownerId: number, activity: TSegmentActivity, now: Date): ContactCondition {
  switch (activity.kind) {
    case 'replied_within_days':
      return { sql: 'c.last_replied_at >= ?', bindings: [new Date(now.getTime() - activity.days * DAY_MS).toISOString()] };
    case 'read_campaign':
    case 'failed_in_campaign':
      return {
        sql: 'c.phone in (select recipient from messages where campaign_id = ? and user_id = ? and status = ?)',
        bindings: [activity.campaign_id, ownerId, activity.kind === 'read_campaign' ? 'read' : 'failed'],
      };
    case 'never_messaged':
      // Message rows are deleted after the retention period; the contact's own time outlives them.
      return { sql: 'c.last_message_at is null and c.phone not in (select recipient from messages where user_id = ?)', bindings: [ownerId] };
  }
}
