import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { mediaPreview, quickSendHref, recipientsFromQuery, replyEffectLabel } from './replies';

const media = (mime_type: string | null, url: string | null = '/api/conversations/media/7') => ({ state: 'stored' as const, mime_type, filename: null, size: 10, url });

describe('mediaPreview', () => {
  it('plays pictures, video and audio in place and links the rest', () => {
    expect(mediaPreview(media('image/jpeg'))).toBe('image');
    expect(mediaPreview(media('video/mp4'))).toBe('video');
    expect(mediaPreview(media('audio/ogg; codecs=opus'))).toBe('audio');
    expect(mediaPreview(media('application/pdf'))).toBe('file');
    expect(mediaPreview(media(null))).toBe('file');
  });

  it('shows nothing while the file has no link (not fetched, failed) or there is none', () => {
    expect(mediaPreview(media('video/mp4', null))).toBeNull();
    expect(mediaPreview(null)).toBeNull();
  });
});

describe('replyEffectLabel', () => {
  it('names each effect from the catalogue, and none for a plain reply', () => {
    expect(replyEffectLabel('opted_out')).toBe('Opted out');
    expect(replyEffectLabel('opted_in')).toBe('Opted back in');
    expect(replyEffectLabel('flagged')).toBe('Flagged for you');
    expect(replyEffectLabel('flagged')).toBe(messages.conversations.effects.flagged);
    expect(replyEffectLabel(null)).toBeNull();
  });
});

describe('Quick Send from Replies', () => {
  it('links to Quick Send with the contact number, which Quick Send fills in', () => {
    const href = quickSendHref('919876543210');
    expect(href).toBe('/user/whatsapp-bulk?to=919876543210');
    expect(recipientsFromQuery(new URL(href, 'http://app.test').searchParams.get('to'))).toBe('919876543210');
  });

  it('keeps only digits and a plus of the query, and nothing without one', () => {
    expect(recipientsFromQuery('+91 98765-43210<script>')).toBe('+919876543210');
    expect(recipientsFromQuery(null)).toBe('');
  });
});
