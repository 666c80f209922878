import { describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, loadConfig } from './config';

describe('loadConfig', () => {
  it('gives working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    // Development mode listens on this machine only: `npm start` works out of the box, safely.
    expect(config.host).toBe('127.0.0.1');
    expect(config.database.kind).toBe('sqlite');
    expect(config.session.idleTimeoutSeconds).toBe(600);
    expect(config.simulatorEnabled).toBe(true);
    expect(config.admin.username).toBe('admin');
  });

  it('refuses development mode on a network address unless ALLOW_DEV_ON_NETWORK is true', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/HOST: 0.0.0.0 is reachable from the network but NODE_ENV is development/);
    expect(() => loadConfig({ NODE_ENV: 'test', HOST: '192.168.1.20' })).toThrow(ConfigError);
    expect(loadConfig({ HOST: '0.0.0.0', ALLOW_DEV_ON_NETWORK: 'true' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: 'localhost' }).host).toBe('localhost');
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
    const production = loadConfig({ NODE_ENV: 'production', SECRETS_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' });
    expect(production.host).toBe('0.0.0.0');
  });

  it('keeps the simulator inbox, sandbox checkout and default simulator secret local unless enabled on purpose', () => {
    const defaults = loadConfig({});
    expect(defaults.loopbackOnly).toEqual({ simulatorInbox: true, sandboxCheckout: true });
    expect(defaults.simulator.appSecretIsDefault).toBe(true);
    const opened = loadConfig({ SIMULATOR_ENABLED: 'true', PAYMENTS_SANDBOX: 'true', SIMULATOR_APP_SECRET: 'a-private-secret' });
    expect(opened.loopbackOnly).toEqual({ simulatorInbox: false, sandboxCheckout: false });
    expect(opened.simulator).toMatchObject({ appSecret: 'a-private-secret', appSecretIsDefault: false });
  });

  it('counts TRUST_PROXY_HOPS from the right, one by default', () => {
    expect(loadConfig({}).trustProxyHops).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' }).trustProxyHops).toBe(2);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    expect(config.database).toMatchObject({ kind: 'postgresql', url: 'postgres://postgres@127.0.0.1:5432/test' });
  });

  it('reads the resumable upload settings in bytes, and refuses a part size too small for the largest upload', () => {
    expect(loadConfig({}).uploads).toEqual({ partSizeBytes: 8 * 1024 * 1024, maxBytes: 1024 * 1024 * 1024, userQuotaBytes: 2048 * 1024 * 1024 });
    expect(loadConfig({ UPLOAD_PART_SIZE: '64kb', UPLOAD_MAX_MB: '2', UPLOAD_USER_QUOTA_MB: '3' }).uploads).toEqual({
      partSizeBytes: 64 * 1024,
      maxBytes: 2 * 1024 * 1024,
      userQuotaBytes: 3 * 1024 * 1024,
    });
    expect(() => loadConfig({ UPLOAD_PART_SIZE: '16kb' })).toThrow(/UPLOAD_PART_SIZE: too small for UPLOAD_MAX_MB/);
    expect(() => loadConfig({ UPLOAD_PART_SIZE: '8' })).toThrow(ConfigError);
  });

  it('lists every bad value at once', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SESSION_IDLE_TIMEOUT_SECONDS: '0' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(3);
      expect(problems.join('\n')).toMatch(/PORT: must be a port number/);
      expect(problems.join('\n')).toMatch(/DATABASE_URL: must start with postgres/);
      expect(problems.join('\n')).toMatch(/SESSION_IDLE_TIMEOUT_SECONDS: must be at least 1/);
    }
  });

  it('never enables the simulator in production', () => {
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' }).simulatorEnabled).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', SECRETS_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', SIMULATOR_ENABLED: 'true' })).toThrow(ConfigError);
  });

  it('turns on Secure cookies in production by default', () => {
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' }).session.cookieSecure).toBe(true);
    expect(loadConfig({}).session.cookieSecure).toBe(false);
  });

  it('documents every variable', () => {
    const names = describeConfig().map((v) => v.name);
    expect(names).toContain('DATABASE_URL');
    expect(names).toContain('SESSION_IDLE_TIMEOUT_SECONDS');
    expect(describeConfig().every((v) => v.doc.length > 10)).toBe(true);
  });
});

describe('README configuration table', () => {
  it('lists every variable with its default', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const { name, defaultValue } of describeConfig()) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, `README row for ${name}`).toBeDefined();
      if (defaultValue) expect(row).toContain(`\`${defaultValue}\``);
    }
  });
});

describe('payments configuration', () => {
  it('offers the sandbox in development without keys, never in production', () => {
    expect(loadConfig({}).payments).toEqual({ razorpay: null, sandbox: true });
    expect(loadConfig({ NODE_ENV: 'production', SECRETS_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' }).payments).toEqual({ razorpay: null, sandbox: false });
    expect(() => loadConfig({ NODE_ENV: 'production', SECRETS_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', PAYMENTS_SANDBOX: 'true' })).toThrow(ConfigError);
  });

  it('uses Razorpay when both keys are set, and refuses one without the other', () => {
    const config = loadConfig({ RAZORPAY_KEY_ID: 'rzp_test_abc', RAZORPAY_KEY_SECRET: 'secret-123', RAZORPAY_API_BASE: 'http://127.0.0.1:9/' });
    expect(config.payments.razorpay).toMatchObject({ keyId: 'rzp_test_abc', apiBase: 'http://127.0.0.1:9' });
    expect(config.payments.sandbox).toBe(false);
    expect(() => loadConfig({ RAZORPAY_KEY_ID: 'rzp_test_abc' })).toThrow(/set both or neither/);
  });
});

describe('sending configuration', () => {
  it('requires a secrets key in production and both platform number settings or neither', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SECRETS_KEY/);
    expect(() => loadConfig({ PLATFORM_WHATSAPP_PHONE_NUMBER_ID: '123456789' })).toThrow(/PLATFORM_WHATSAPP_ACCESS_TOKEN/);
    const config = loadConfig({ PLATFORM_WHATSAPP_PHONE_NUMBER_ID: '123456789', PLATFORM_WHATSAPP_ACCESS_TOKEN: 'EAAG-test-token-0123456789' });
    expect(config.platformCloudApi).toEqual({ phoneNumberId: '123456789', accessToken: 'EAAG-test-token-0123456789', otpTemplate: 'password_reset_code', inviteTemplate: 'team_invitation' });
  });

  it('derives the public address and dispatch settings', () => {
    const config = loadConfig({ PORT: '4000', DISPATCH_BATCH_SIZE: '50' });
    expect(config.publicBaseUrl).toBe('http://127.0.0.1:4000');
    expect(config.sending.dispatch).toMatchObject({ enabled: true, batchSize: 50, maxAttempts: 8, leaseSeconds: 60 });
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://app.example.com/' }).publicBaseUrl).toBe('https://app.example.com');
  });
});
