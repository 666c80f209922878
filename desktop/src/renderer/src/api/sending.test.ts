import { describe, expect, it } from 'vitest';
import { quickSendRequestBody, type QuickSendBody } from './sending';

const body: QuickSendBody = {
  phone_number_id: 'pn-1',
  template_name: 'offer',
  language: 'en_US',
  recipients_text: '919876543210',
  variables: { '1': 'Asha' },
  campaign_name: 'Diwali',
};

describe('quickSendRequestBody', () => {
  it('sends JSON as it is without an image, scheduledAt included when set', () => {
    expect(quickSendRequestBody(body, null)).toBe(body);
    const scheduled = { ...body, scheduledAt: '2026-11-25T10:30:00+05:30' };
    expect(quickSendRequestBody(scheduled, null)).toEqual(scheduled);
  });

  it('carries scheduledAt as a multipart field beside the header image, and leaves it out to send now', () => {
    const image = new File([new Uint8Array([1, 2, 3])], 'banner.png', { type: 'image/png' });
    const scheduled = quickSendRequestBody({ ...body, scheduledAt: '2026-11-25T10:30:00+05:30' }, image) as FormData;
    expect(scheduled.get('scheduledAt')).toBe('2026-11-25T10:30:00+05:30');
    expect(scheduled.get('variables')).toBe('{"1":"Asha"}');
    const now = quickSendRequestBody(body, image) as FormData;
    expect(now.has('scheduledAt')).toBe(false);
  });

  it('carries an upload and its number column in place of the typed list', () => {
    const image = new File([new Uint8Array([1, 2, 3])], 'banner.png', { type: 'image/png' });
    const { recipients_text: _typed, ...rest } = body;
    const fromUpload = quickSendRequestBody({ ...rest, uploadId: 'u-1', recipientColumn: 'Mobile' }, image) as FormData;
    expect(fromUpload.get('uploadId')).toBe('u-1');
    expect(fromUpload.get('recipientColumn')).toBe('Mobile');
    expect(fromUpload.has('recipients_text')).toBe(false);
  });
});
