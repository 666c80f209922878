import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { formatFileSize, headerMediaError } from './headerMedia';

const MB = 1024 * 1024;

describe('headerMediaError', () => {
  it('accepts files of the chosen type within its limit', () => {
    expect(headerMediaError({ type: 'image/png', size: 5 * MB }, 'image')).toBeNull();
    expect(headerMediaError({ type: 'video/mp4', size: 16 * MB }, 'video')).toBeNull();
    expect(headerMediaError({ type: 'application/pdf', size: MB }, 'document')).toBeNull();
  });

  it('refuses anything that is not an image, video or application file', () => {
    expect(headerMediaError({ type: 'text/plain', size: 10 }, 'document')).toBe(messages.templates.fileTypeInvalid);
    expect(headerMediaError({ type: '', size: 10 }, 'image')).toBe(messages.templates.fileTypeInvalid);
  });

  it('refuses a file of another kind than the header type', () => {
    expect(headerMediaError({ type: 'video/mp4', size: 10 }, 'image')).toBe(messages.templates.fileTypeMismatch);
  });

  it('names the limit of the header type in the size message', () => {
    expect(headerMediaError({ type: 'image/jpeg', size: 5 * MB + 1 }, 'image')).toBe('File size must be less than 5MB');
    expect(headerMediaError({ type: 'video/mp4', size: 16 * MB + 1 }, 'video')).toBe('File size must be less than 16MB');
    expect(headerMediaError({ type: 'application/pdf', size: 5 * MB + 1 }, 'document')).toBe('File size must be less than 5MB');
  });
});

describe('formatFileSize', () => {
  it('reads in B, KB or MB', () => {
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(2048)).toBe('2 KB');
    expect(formatFileSize(1.5 * MB)).toBe('1.5 MB');
  });
});
