import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import { ApiError } from '../api/errors';
import {
  buildProviderPayload,
  canSaveProvider,
  defaultProviderSettings,
  isProviderFormChanged,
  providerFormFrom,
  providerLoadFailure,
  providerSaveFailure,
  validateProviderForm,
} from './providerSettingsForm';

const p = messages.providers;

describe('provider settings form', () => {
  const saved = providerFormFrom({ channelId: 'channel-1' });

  it('starts from the loaded channel with an empty (write-only) key', () => {
    expect(saved).toEqual({ channelId: 'channel-1', apiKey: '' });
    expect(providerFormFrom({ channelId: null })).toEqual({ channelId: '', apiKey: '' });
  });

  it('falls back to the spec defaults when loading failed', () => {
    expect(defaultProviderSettings(7)).toMatchObject({
      userId: 7,
      businessName: 'Not Set',
      whatsappNumber: 'Not Configured',
      channelId: null,
      apiKeySet: false,
    });
  });

  it('counts a new channel id or any typed key as a change, not surrounding spaces', () => {
    expect(isProviderFormChanged(saved, { ...saved })).toBe(false);
    expect(isProviderFormChanged(saved, { ...saved, channelId: ' channel-1 ' })).toBe(false);
    expect(isProviderFormChanged(saved, { ...saved, channelId: 'channel-2' })).toBe(true);
    expect(isProviderFormChanged(saved, { ...saved, apiKey: 'k' })).toBe(true);
  });

  it('sends the trimmed channel id, and the key only when one was typed', () => {
    expect(buildProviderPayload({ channelId: ' channel-2 ', apiKey: '' })).toEqual({ channelId: 'channel-2' });
    expect(buildProviderPayload({ channelId: 'channel-2', apiKey: 'secret-key-123' })).toEqual({ channelId: 'channel-2', apiKey: 'secret-key-123' });
  });

  it.each([
    [{ channelId: '', apiKey: '' }, 'channelId', p.channelIdRequired],
    [{ channelId: 'c', apiKey: '' }, 'channelId', p.channelIdMin],
    [{ channelId: 'c'.repeat(129), apiKey: '' }, 'channelId', p.channelIdMax],
    [{ channelId: 'has space', apiKey: '' }, 'channelId', p.channelIdChars],
    [{ channelId: 'channel-1', apiKey: 'short' }, 'apiKey', p.apiKeyLength],
    [{ channelId: 'channel-1', apiKey: ' spaced-key-1 ' }, 'apiKey', p.apiKeySpaces],
  ])('refuses %j', (form, field, message) => {
    expect(validateProviderForm(form)).toEqual({ ok: false, errors: { [field]: message } });
  });

  it('enables Save only when changed, valid and not busy', () => {
    const changed = { channelId: 'channel-2', apiKey: '' };
    expect(canSaveProvider(saved, changed, false)).toBe(true);
    expect(canSaveProvider(saved, changed, true)).toBe(false);
    expect(canSaveProvider(saved, { ...saved }, false)).toBe(false);
    expect(canSaveProvider(saved, { channelId: 'channel-2', apiKey: 'short' }, false)).toBe(false);
    expect(canSaveProvider(saved, { channelId: 'channel-1', apiKey: 'long-enough-key' }, false)).toBe(true);
  });
});

describe('provider settings failures', () => {
  it("titles a field error 'Invalid {field}' and anything else 'Save Failed'", () => {
    const fieldError = new ApiError({ status: 400, code: 'validation_error', message: p.channelIdMin, serverMessage: p.channelIdMin, field: 'channelId' });
    expect(providerSaveFailure(fieldError)).toEqual({ title: 'Invalid Channel ID', description: p.channelIdMin });
    const down = new ApiError({ status: 0, code: 'network_error', message: messages.common.networkError });
    expect(providerSaveFailure(down)).toEqual({ title: 'Save Failed', description: p.saveFailed });
  });

  it('explains a failed load with the server text, the HTTP status, or the generic text', () => {
    expect(providerLoadFailure(new ApiError({ status: 404, code: 'user_not_found', message: 'User not found', serverMessage: 'User not found' }))).toBe('User not found');
    expect(providerLoadFailure(new ApiError({ status: 502, code: 'http_502', message: 'x' }))).toBe('HTTP 502: Failed to fetch settings');
    expect(providerLoadFailure(new ApiError({ status: 0, code: 'network_error', message: 'x' }))).toBe(p.loadFailed);
  });
});
