/**
 * Which adapter sends for a sender number, with its credentials: the simulator (sandbox numbers,
 * Cloud API layout), Meta's Cloud API (a business's own number and token) or the channel
 * provider, 360dialog (channel id and API key). Credentials are decrypted once per batch and cached
 * briefly, because the adapters ask for them synchronously per send.
 */
import { CloudApiProvider } from './providers/cloudApi';
import { ChannelProvider } from './providers/channel';
import type { WhatsAppProvider } from './providers/types';
import type { SenderNumber } from './senderNumbers';
import type { ProviderCredentials } from '../providerAccounts/credentials';

export interface CredentialsSource {
  credentialsForNumber(senderNumberId: number): Promise<ProviderCredentials | null>;
  /** The channel of a 360dialog API key (the embedded simulator plays 360dialog with it). */
  channelIdForApiKey?(apiKey: string): Promise<string | null>;
}

/** The access token the simulator's Cloud API layout accepts from sandbox sends. */
export const SIMULATOR_ACCESS_TOKEN = 'sandbox-token';

const CREDENTIALS_TTL_MS = 30_000;

export class ProviderRegistry {
  private simulator: CloudApiProvider | null = null;
  private simulatorUrl: string | null;
  private readonly cloudApi: CloudApiProvider;
  private readonly channel: ChannelProvider;
  private readonly cached = new Map<string, { credentials: ProviderCredentials | null; at: number }>();

  constructor(
    private readonly settings: {
      simulatorUrl: string | null;
      whatsappApiBase: string;
      whatsappApiVersion: string;
      channelApiBase: string;
      credentials: CredentialsSource | null;
      /** How long one send waits for an answer (DISPATCH_SEND_TIMEOUT_SECONDS); default 15 s. */
      timeoutMs?: number;
    },
  ) {
    this.simulatorUrl = settings.simulatorUrl;
    this.cloudApi = new CloudApiProvider({
      baseUrl: settings.whatsappApiBase,
      apiVersion: settings.whatsappApiVersion,
      ...this.timeout(),
      accessToken: (phoneNumberId) => {
        const credentials = this.cached.get(`cloud_api:${phoneNumberId}`)?.credentials;
        return credentials?.kind === 'cloud_api' ? credentials.accessToken : null;
      },
    });
    this.channel = new ChannelProvider({
      baseUrl: settings.channelApiBase,
      ...this.timeout(),
      channelFor: (channelId) => {
        const credentials = this.cached.get(`channel:${channelId}`)?.credentials;
        return credentials?.kind === 'channel' ? { channelId: credentials.channelId, apiKey: credentials.apiKey } : null;
      },
    });
  }

  private timeout(): { timeoutMs?: number } {
    return this.settings.timeoutMs ? { timeoutMs: this.settings.timeoutMs } : {};
  }

  /** The simulator's base URL (its Cloud API layout); null while unknown or when it is off. */
  simulatorBase(): string | null {
    return this.simulatorUrl;
  }

  /** The in-process simulator's address is known only once the server listens. */
  setSimulatorUrl(url: string | null): void {
    if (url === this.simulatorUrl) return;
    this.simulatorUrl = url;
    const previous = this.simulator;
    this.simulator = null;
    void previous?.close();
  }

  /** Loads (or refreshes) the credentials of these numbers before a batch is sent. */
  async prepare(numbers: readonly SenderNumber[]): Promise<void> {
    const now = Date.now();
    for (const number of numbers) {
      if (number.provider === 'simulator') continue;
      const key = `${number.provider}:${number.phoneNumberId}`;
      const hit = this.cached.get(key);
      if (hit && now - hit.at < CREDENTIALS_TTL_MS) continue;
      const credentials = (await this.settings.credentials?.credentialsForNumber(number.id)) ?? null;
      this.cached.set(key, { credentials, at: now });
    }
  }

  providerFor(number: SenderNumber): WhatsAppProvider | null {
    if (number.provider === 'cloud_api') return this.cloudApi;
    if (number.provider === 'channel') return this.channel;
    if (!this.simulatorUrl) return null;
    // The simulator answers the configured version, as Meta would: its path is the one real sends take.
    this.simulator ??= new CloudApiProvider({ baseUrl: this.simulatorUrl, apiVersion: this.settings.whatsappApiVersion, accessToken: SIMULATOR_ACCESS_TOKEN, connections: 128, ...this.timeout() });
    return this.simulator;
  }

  async close(): Promise<void> {
    await Promise.all([this.cloudApi.close(), this.channel.close(), this.simulator?.close()]);
  }
}
