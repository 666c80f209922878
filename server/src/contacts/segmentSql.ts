import { fillMessage, messages } from '@shared/messages';
import type { TContactAttributeType, TSegmentActivity, TSegmentAttributeCondition, TSegmentFilter } from '@shared/schemas/contacts';
import { ValidationError } from '../errors';
import { containsPattern, type ContactSqlDialect } from './sqlDialect';

export interface AttributeDefinition {
  id: number;
  name: string;
  type: TContactAttributeType;
}

/** A SELECT answering one column `id` of contact ids, with its bindings in order. */
export interface ContactIdQuery {
  sql: string;
  bindings: (string | number)[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A segment filter as one compound SELECT of contact ids: each condition reads its own index
 * range (a tag, an attribute's values, a campaign's messages) and the sets are intersected, then
 * the "none of" sets taken away. Each member answers an id once, so the whole does too. Contacts are read in full only when no condition narrows them
 * (an empty filter, or one with only exclusions). Every condition is scoped to the owner: tags and
 * contacts by `user_id`, values by the owner's attribute ids.
 */
export function compileSegmentFilter(
  dialect: ContactSqlDialect,
  ownerId: number,
  filter: TSegmentFilter,
  attributes: ReadonlyMap<string, AttributeDefinition>,
  now: Date,
): ContactIdQuery {
  const included: ContactIdQuery[] = [];
  const excluded: ContactIdQuery[] = [];
  const tagsIn = (tags: readonly string[]): ContactIdQuery => ({
    sql: `select distinct contact_id as id from contact_tags where user_id = ? and tag in (${tags.map(() => '?').join(', ')})`,
    bindings: [ownerId, ...tags],
  });

  for (const tag of filter.tags_all ?? []) included.push(tagsIn([tag]));
  if (filter.tags_any?.length) included.push(tagsIn(filter.tags_any));
  if (filter.tags_none?.length) excluded.push(tagsIn(filter.tags_none));

  for (const condition of filter.attributes ?? []) {
    const attribute = attributes.get(condition.name);
    if (condition.op === 'empty') {
      // An attribute nobody has is empty for everyone.
      if (attribute) excluded.push({ sql: 'select contact_id as id from contact_attribute_values where attribute_id = ?', bindings: [attribute.id] });
      continue;
    }
    if (!attribute) throw ValidationError('filter.attributes', fillMessage(messages.contacts.segmentUnknownAttribute, { name: condition.name }));
    included.push(attributeCondition(dialect, attribute, condition));
  }

  for (const activity of filter.activity ?? []) {
    const query = activityCondition(ownerId, activity, now);
    included.push(query);
  }

  const optInQuery: ContactIdQuery = { sql: 'select id from contacts where user_id = ? and opt_in_at is not null', bindings: [ownerId] };
  if (filter.opt_in === true) included.push(optInQuery);
  if (filter.opt_in === false) excluded.push(optInQuery);

  if (included.length === 0) included.push({ sql: 'select id from contacts where user_id = ?', bindings: [ownerId] });
  // Intersections first, then exclusions: both databases read a chain of these left to right.
  const parts = [...included.map((q, i) => ({ q, op: i === 0 ? '' : 'intersect ' })), ...excluded.map((q) => ({ q, op: 'except ' }))];
  return {
    sql: parts.map(({ q, op }) => `${op}${q.sql}`).join(' '),
    bindings: parts.flatMap(({ q }) => q.bindings),
  };
}

function attributeCondition(dialect: ContactSqlDialect, attribute: AttributeDefinition, condition: TSegmentAttributeCondition): ContactIdQuery {
  const base = 'select contact_id as id from contact_attribute_values where attribute_id = ? and ';
  const value = condition.value;
  if (value === undefined || value === '') {
    throw ValidationError('filter.attributes', fillMessage(messages.contacts.segmentValueRequired, { name: condition.name }));
  }
  if (condition.op === 'contains') return { sql: base + dialect.containsSql('value'), bindings: [attribute.id, containsPattern(String(value))] };
  const numeric = attribute.type === 'number';
  if (numeric && !Number.isFinite(Number(value))) {
    throw ValidationError('filter.attributes', fillMessage(messages.contacts.attributeNotNumber, { name: condition.name }));
  }
  const column = numeric ? 'number_value' : 'value';
  const bound = numeric ? Number(value) : String(value);
  const operator = condition.op === 'eq' ? '=' : condition.op === 'before' ? '<' : '>';
  return { sql: `${base}${column} ${operator} ?`, bindings: [attribute.id, bound] };
}

function activityCondition(ownerId: number, activity: TSegmentActivity, now: Date): ContactIdQuery {
  switch (activity.kind) {
    case 'replied_within_days':
      return {
        sql: 'select id from contacts where user_id = ? and last_replied_at >= ?',
        bindings: [ownerId, new Date(now.getTime() - activity.days * DAY_MS).toISOString()],
      };
    case 'read_campaign':
    case 'failed_in_campaign':
      return {
        sql:
          'select distinct c.id from messages m join contacts c on c.user_id = m.user_id and c.phone = m.recipient ' +
          'where m.campaign_id = ? and m.user_id = ? and m.status = ?',
        bindings: [activity.campaign_id, ownerId, activity.kind === 'read_campaign' ? 'read' : 'failed'],
      };
    case 'never_messaged':
      // Message rows are deleted after the retention period; the contact's own time outlives them.
      return {
        sql:
          'select c.id from contacts c where c.user_id = ? and c.last_message_at is null ' +
          'and not exists (select 1 from messages m where m.user_id = c.user_id and m.recipient = c.phone)',
        bindings: [ownerId],
      };
  }
}
