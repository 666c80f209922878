import type { Knex } from 'knex';
import { USABLE_TEMPLATE_STATUSES } from '@shared/templates';
import type { TOnboardingStepKey } from '@shared/types';

export interface OnboardingState {
  steps: { key: TOnboardingStepKey; done: boolean }[];
  dismissed: boolean;
}

/**
 * The dashboard's getting-started checklist. Every step is read from what the account
 * really did, never stored as ticked, so it cannot disagree with the wallet, templates or sends.
 * Only the dismissal is kept (`users.onboarding_dismissed_at`).
 */
export class OnboardingService {
  constructor(private readonly deps: { db: Knex }) {}

  async state(userId: number): Promise<OnboardingState> {
    const { db } = this.deps;
    const exists = async (query: Knex.QueryBuilder) => Boolean(await query.select(db.raw('1 as found')).first());
    const [user, toppedUp, created, approved, campaign, debited, apiKey] = await Promise.all([
      db('users').where({ id: userId }).first('onboardingDismissedAt') as Promise<{ onboardingDismissedAt: unknown } | undefined>,
      // Money put in: a payment, or credits an administrator added (an offline payment).
      exists(db('credit_transactions').where({ userId }).whereIn('type', ['TOPUP_ADD', 'ADMIN_ADD'])),
      exists(db('templates').where({ userId })),
      exists(db('templates').where({ userId }).whereIn('status', [...USABLE_TEMPLATE_STATUSES])),
      exists(db('campaigns').where({ userId })),
      // Campaign rows go after the retention window; the ledger's debit is kept for good.
      exists(db('credit_transactions').where({ userId, type: 'CAMPAIGN_DEBIT' })),
      // A revoked key still shows the step was learnt.
      exists(db('api_keys').where({ userId })),
    ]);
    return {
      steps: [
        { key: 'topUp', done: toppedUp },
        { key: 'createTemplate', done: created },
        { key: 'templateApproved', done: approved },
        { key: 'firstSend', done: campaign || debited },
        { key: 'createApiKey', done: apiKey },
      ],
      dismissed: user?.onboardingDismissedAt !== null && user?.onboardingDismissedAt !== undefined,
    };
  }

  async dismiss(userId: number): Promise<void> {
    await this.deps.db('users').where({ id: userId }).whereNull('onboardingDismissedAt').update({ onboardingDismissedAt: new Date().toISOString() });
  }
}
