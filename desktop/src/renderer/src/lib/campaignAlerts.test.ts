import { describe, expect, it } from 'vitest';
import type { TNotification } from '@shared/schemas/notifications';
import { createCampaignAlerts } from './campaignAlerts';

function notification(id: number, kind: string, overrides: Partial<TNotification> = {}): TNotification {
  return { id, kind, type: kind === 'campaign_failed' ? 'error' : 'success', title: `title ${id}`, message: `message ${id}`, read: false, createdAt: '2026-11-24T10:00:00.000Z', ...overrides };
}

describe('campaign alerts', () => {
  it('announces campaign endings that arrive after the first list, once each, oldest first', () => {
    const shown: string[][] = [];
    const alerts = createCampaignAlerts((title, body) => shown.push([title, body]));
    alerts.observe([notification(2, 'campaign_completed'), notification(1, 'low_balance')]);
    expect(shown).toEqual([]);

    const later = [notification(5, 'campaign_failed'), notification(4, 'low_balance'), notification(3, 'campaign_completed'), notification(2, 'campaign_completed')];
    alerts.observe(later);
    expect(shown).toEqual([
      ['title 3', 'message 3'],
      ['title 5', 'message 5'],
    ]);
    // The same list again (a poll, a re-render) announces nothing more.
    alerts.observe(later);
    expect(shown).toHaveLength(2);
  });

  it('skips other kinds and endings already read elsewhere', () => {
    const shown: string[] = [];
    const alerts = createCampaignAlerts((title) => shown.push(title));
    alerts.observe([]);
    alerts.observe([notification(3, 'campaign_completed', { read: true }), notification(2, 'template_approved'), notification(1, 'new_device_sign_in')]);
    expect(shown).toEqual([]);
  });

  it('takes a new baseline after a reset (another person signed in)', () => {
    const shown: string[] = [];
    const alerts = createCampaignAlerts((title) => shown.push(title));
    alerts.observe([]);
    alerts.reset();
    alerts.observe([notification(9, 'campaign_completed')]);
    expect(shown).toEqual([]);
    alerts.observe([notification(10, 'campaign_failed'), notification(9, 'campaign_completed')]);
    expect(shown).toEqual(['title 10']);
  });
});
