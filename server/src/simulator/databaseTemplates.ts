/**
 * Where the simulator finds the template a send names, as Meta would: the sender number's owner's
 * template of that name and language, or the platform's own authentication template. Read from
 * the product's database, by the embedded simulator and the standalone one alike.
 */
import type { Knex } from 'knex';
import type { TTemplateComponent } from '@shared/types';
import { LookupCache } from '../lookupCache';
import { PLATFORM_PHONE_NUMBER_ID, platformTemplate, platformTemplateCategory } from '../sending/platformSender';
import type { ResolveTemplate } from './cloudApiSimulator';

/**
 * How long a found template is reused: a campaign sends the same template up to its number's
 * limit (1,000 a second in the dispatch bench), and two reads per send were a fifth of
 * PostgreSQL's work there. A template that is not found is read again at the next send.
 */
const TEMPLATE_TTL_MS = 5_000;

export function databaseTemplates(db: Knex, brandName: string): ResolveTemplate {
  const found = new LookupCache({ ttlMs: TEMPLATE_TTL_MS, maxEntries: 1_000 });
  const read = async (phoneNumberId: string, name: string, language: string): Promise<TTemplateComponent[] | null> => {
    const number = (await db('whatsapp_numbers').where({ phoneNumberId }).first('userId')) as { userId: number } | undefined;
    if (!number) return null;
    const row = (await db('templates').where({ userId: number.userId, name, language }).first('components')) as { components: string | TTemplateComponent[] } | undefined;
    if (!row) return null;
    return typeof row.components === 'string' ? (JSON.parse(row.components) as TTemplateComponent[]) : row.components;
  };
  return async (phoneNumberId, name, language) => {
    if (phoneNumberId === PLATFORM_PHONE_NUMBER_ID) return platformTemplate(name, brandName);
    return found.get(JSON.stringify([phoneNumberId, name, language]), () => read(phoneNumberId, name, language));
  };
}

/**
 * The channel a 360dialog API key belongs to, for the embedded simulator playing 360dialog: the
 * account whose stored key it is. Found keys are reused briefly (each lookup opens every stored
 * key); a key not found is looked up again next time. A key not stored (yet: saving the settings
 * registers the webhook before storing the key) stands for a channel of its own, as the sandbox
 * accepts any key; a test that needs 360dialog's 401 runs a simulator with its own keys.
 */
export function databaseChannelKeys(source: { channelIdForApiKey?(apiKey: string): Promise<string | null> } | null): ((apiKey: string) => Promise<string | null>) | undefined {
  const lookup = source?.channelIdForApiKey?.bind(source);
  if (!lookup) return undefined;
  const found = new LookupCache({ ttlMs: TEMPLATE_TTL_MS, maxEntries: 100 });
  return async (apiKey) => (await found.get(apiKey, () => lookup(apiKey))) ?? apiKey;
}

/**
 * The category of the template a send names, as the simulator reports it in each status's
 * `pricing` (Meta bills by the template's category). The platform's own codes are AUTHENTICATION, its invitations UTILITY.
 */
export function databaseTemplateCategories(db: Knex): (phoneNumberId: string, name: string, language: string) => Promise<string | null> {
  const found = new LookupCache({ ttlMs: TEMPLATE_TTL_MS, maxEntries: 1_000 });
  const read = async (phoneNumberId: string, name: string, language: string): Promise<string | null> => {
    const number = (await db('whatsapp_numbers').where({ phoneNumberId }).first('userId')) as { userId: number } | undefined;
    if (!number) return null;
    const row = (await db('templates').where({ userId: number.userId, name, language }).first('category')) as { category: string } | undefined;
    return row?.category ?? null;
  };
  return async (phoneNumberId, name, language) => {
    if (phoneNumberId === PLATFORM_PHONE_NUMBER_ID) return platformTemplateCategory(name);
    return found.get(JSON.stringify([phoneNumberId, name, language]), () => read(phoneNumberId, name, language));
  };
}
