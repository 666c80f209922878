import { describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import { audienceSendFormSchema, emptyAudienceForm, type AudienceSendContext, type TAudienceForm } from './audienceSendForm';

const s = messages.contactScreens;
const context: AudienceSendContext = { templateName: 'offer_dec', language: 'en_US', numberId: '1001', campaignName: ' Diwali ', variables: ['1', '2'] };
const check = (form: TAudienceForm, now: AudienceSendContext = context) => audienceSendFormSchema(() => now).safeParse(form);
const firstIssue = (form: TAudienceForm) => {
  const result = check(form);
  return result.success ? null : { path: result.error.issues[0]?.path.join('.'), message: result.error.issues[0]?.message };
};

describe('the Contacts source form', () => {
  it('starts on a segment, or on tags when a link names only tags', () => {
    expect(emptyAudienceForm()).toMatchObject({ audience: 'segment', segmentId: '', tagsMatch: 'any' });
    expect(emptyAudienceForm({ segment: '12' })).toMatchObject({ audience: 'segment', segmentId: '12' });
    expect(emptyAudienceForm({ tags: 'vip' })).toMatchObject({ audience: 'tags', tags: 'vip' });
  });

  it('asks for a segment, or for at least one tag, before anything else', () => {
    expect(firstIssue(emptyAudienceForm())).toEqual({ path: 'segmentId', message: s.segmentRequired });
    expect(firstIssue({ ...emptyAudienceForm(), audience: 'tags', tags: ' , ' })).toEqual({ path: 'tags', message: s.tagsRequired });
  });

  it('asks for the text of a variable left on fixed text', () => {
    const form = { ...emptyAudienceForm({ segment: '12' }), variables: { '1': { source: 'attr:name', text: '', fallback: '' } } };
    expect(firstIssue(form)).toEqual({ path: 'variables', message: fillMessage(s.fixedTextRequired, { variable: '{{2}}' }) });
  });

  it('makes the request the server checks: a segment, attributes with their fallbacks and fixed texts', () => {
    const form = {
      ...emptyAudienceForm({ segment: '12' }),
      variables: { '1': { source: 'attr:first_name', text: '', fallback: ' there ' }, '2': { source: '', text: ' gold ', fallback: 'unused' } },
    };
    const result = check(form);
    expect(result.success && result.data).toEqual({
      templatename: 'offer_dec',
      language: 'en_US',
      phone_number_id: '1001',
      campaign_name: 'Diwali',
      segment_id: 12,
      variables: { '1': 'attr:first_name', '2': 'gold' },
      fallbacks: { '1': 'there' },
    });
  });

  it('sends to contacts with all of the tags when asked, with the schedule the page chose', () => {
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const form: TAudienceForm = { ...emptyAudienceForm(), audience: 'tags', tags: 'vip, pune', tagsMatch: 'all', variables: {} };
    const result = check(form, { ...context, variables: [], scheduledAt });
    expect(result.success).toBe(true);
    expect(result.success && result.data).toMatchObject({ tags: ['vip', 'pune'], tags_match: 'all' });
    expect(result.success && result.data.scheduledAt?.toISOString()).toBe(scheduledAt);
  });
});
