import { describe, expect, it } from 'vitest';
import { SAMPLE_PHOTO } from '../simulator/inbox';
import { checkedExtension } from './mediaFiles';

describe('checkedExtension', () => {
  it('keeps a JPEG declared as one, with the voice-note style parameters ignored', () => {
    expect(checkedExtension(SAMPLE_PHOTO, 'image/jpeg')).toBe('jpg');
    expect(checkedExtension(Buffer.from('OggS\0\0\0'), 'audio/ogg; codecs=opus')).toBe('ogg');
  });

  it('refuses bytes that are not the declared type, and types we do not keep', () => {
    expect(checkedExtension(Buffer.from('<html>'), 'image/jpeg')).toBeNull();
    expect(checkedExtension(SAMPLE_PHOTO, 'application/x-msdownload')).toBeNull();
  });
});
