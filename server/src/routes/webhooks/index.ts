import Router from '@koa/router';
import { messages } from '@shared/messages';
import type { AppConfig } from '../../config';
import type { Knex } from '../../db/knex';
import { UnauthorizedError } from '../../errors';
import { PLATFORM_PHONE_NUMBER_ID } from '../../messaging/platformMessenger';
import { WEBHOOK_PATH } from '../../sending/engine';
import { parseCloudApiWebhook, verifyWebhookHandshake, verifyWebhookSignature } from '../../sending/providers/webhooks';
import type { Services } from '../../services';
import type { AppState } from '../../types';

/** Replies a recipient can send to stop a business's messages (WhatsApp's own wording and common ones). */
const STOP_WORDS = new Set(['stop', 'unsubscribe', 'stop all', 'opt out', 'optout', 'cancel']);
const START_WORDS = new Set(['start', 'subscribe', 'unstop']);

/** Template review outcomes a provider may report (DECISIONS.md, Templates). */
const TEMPLATE_EVENTS = new Set(['APPROVED', 'REJECTED', 'PAUSED', 'DISABLED']);

interface TemplateStatusChange {
  wabaId: string;
  name: string;
  language: string;
  event: string;
  reason: string | null;
}

/** `message_template_status_update` changes: entry.id is the business account (WABA) id. */
function templateStatusChangesOf(body: unknown): TemplateStatusChange[] {
  const out: TemplateStatusChange[] = [];
  const entries = (body as { entry?: { id?: unknown; changes?: { field?: unknown; value?: Record<string, unknown> }[] }[] } | null)?.entry;
  for (const entry of Array.isArray(entries) ? entries : []) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value;
      if (change?.field !== 'message_template_status_update' || !value || typeof entry.id !== 'string') continue;
      const event = typeof value.event === 'string' ? value.event.toUpperCase() : '';
      if (!TEMPLATE_EVENTS.has(event) || typeof value.message_template_name !== 'string') continue;
      out.push({
        wabaId: entry.id,
        name: value.message_template_name,
        language: typeof value.message_template_language === 'string' ? value.message_template_language : '',
        event,
        reason: typeof value.reason === 'string' && value.reason !== 'NONE' ? value.reason.slice(0, 500) : null,
      });
    }
  }
  return out;
}

function wabaIdsOf(body: unknown): string[] {
  const entries = (body as { entry?: { id?: unknown }[] } | null)?.entry;
  return [...new Set((Array.isArray(entries) ? entries : []).flatMap((e) => (typeof e?.id === 'string' ? [e.id] : [])))];
}

function phoneNumberIdsOf(body: unknown): string[] {
  const ids = new Set<string>();
  const entries = (body as { entry?: { changes?: { value?: { metadata?: { phone_number_id?: unknown } } }[] }[] } | null)?.entry;
  for (const entry of Array.isArray(entries) ? entries : []) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const id = change?.value?.metadata?.phone_number_id;
      if (typeof id === 'string' && id) ids.add(id);
    }
  }
  return [...ids];
}

/**
 * The provider's webhook (Meta's Cloud API, the channel provider, the simulator): the signature
 * is checked against the secrets of the numbers the body names, events are stored, and the
 * answer goes back at once; statuses are applied in batches by StatusIngest.
 */
export function webhookRoutes(services: Services, config: AppConfig, db: Knex): Router<AppState> {
  const router = new Router<AppState>();
  const { providerAccounts, engine } = services;

  router.get(WEBHOOK_PATH, async (ctx) => {
    const tokens = [...(config.providers.webhookVerifyToken ? [config.providers.webhookVerifyToken] : []), ...(await providerAccounts.verifyTokens())];
    for (const token of tokens) {
      const result = verifyWebhookHandshake(ctx.query, token);
      if (result.ok) {
        ctx.type = 'text/plain';
        ctx.body = result.challenge;
        return;
      }
    }
    ctx.status = 403;
    ctx.body = { success: false, error: messages.webhooks.verificationFailed };
  });

  router.post(WEBHOOK_PATH, async (ctx) => {
    const raw = (ctx.request as typeof ctx.request & { rawBody?: string }).rawBody ?? '';
    const signature = ctx.get('X-Hub-Signature-256');
    const body = ctx.request.body;
    const numberIds = phoneNumberIdsOf(body);
    const numbers = numberIds.length
      ? ((await db('whatsapp_numbers').whereIn('phoneNumberId', numberIds).select('phoneNumberId', 'provider', 'userId')) as { phoneNumberId: string; provider: string; userId: number }[])
      : [];
    const secrets: string[] = [];
    const simulatorInvolved = numbers.some((n) => n.provider === 'simulator') || numberIds.includes(PLATFORM_PHONE_NUMBER_ID);
    if (config.simulatorEnabled && simulatorInvolved) secrets.push(config.simulator.appSecret);
    for (const id of numberIds) secrets.push(...(await providerAccounts.appSecretsForPhoneNumberId(id)));
    // Template review webhooks name no number, only the business account.
    const templateChanges = templateStatusChangesOf(body);
    const businesses = templateChanges.length
      ? ((await db('business_infos').whereIn('wabaId', wabaIdsOf(body)).select('userId', 'wabaId')) as { userId: number; wabaId: string }[])
      : [];
    for (const business of businesses) secrets.push(...(await providerAccounts.appSecretsForUser(business.userId)));
    if (!secrets.some((secret) => verifyWebhookSignature(raw, signature, secret))) throw UnauthorizedError(messages.webhooks.invalidSignature, 'invalid_signature');

    const events = parseCloudApiWebhook(body);
    // The platform's own reset codes are not campaign messages: their statuses have nothing to update.
    await engine.ingest.store(events.statuses.filter((status) => status.phoneNumberId !== PLATFORM_PHONE_NUMBER_ID));

    const ownerOf = new Map(numbers.map((n) => [n.phoneNumberId, n.userId]));
    for (const inbound of events.messages) {
      const userId = inbound.phoneNumberId ? ownerOf.get(inbound.phoneNumberId) : undefined;
      const word = inbound.text?.trim().toLowerCase() ?? '';
      if (!userId || !word) continue;
      if (STOP_WORDS.has(word)) await engine.outcomes.addSuppressions(db, [{ userId, recipient: inbound.from, reason: 'stop_reply' }]);
      else if (START_WORDS.has(word)) await engine.outcomes.removeSuppression(userId, inbound.from);
    }
    for (const preference of events.preferences) {
      const userId = preference.phoneNumberId ? ownerOf.get(preference.phoneNumberId) : undefined;
      if (!userId) continue;
      if (preference.value === 'stop') await engine.outcomes.addSuppressions(db, [{ userId, recipient: preference.waId, reason: 'user_preferences' }]);
      else await engine.outcomes.removeSuppression(userId, preference.waId);
    }
    for (const change of templateChanges) {
      for (const business of businesses.filter((b) => b.wabaId === change.wabaId)) {
        const query = db('templates').where({ userId: business.userId, name: change.name });
        if (change.language) query.where({ language: change.language });
        await query.update({ status: change.event, rejectionReason: change.event === 'REJECTED' ? change.reason : null, updatedAt: new Date().toISOString() });
      }
    }
    ctx.body = { success: true };
  });

  return router;
}
