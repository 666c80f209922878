/**
 * The desktop app's own settings (which server it talks to, this install's device id, and the
 * spreadsheet uploads not finished yet so that a restart resumes them), kept as JSON in a directory
 * passed in: `app.getPath('userData')` in production, a temporary directory in tests.
 *
 * Resolution order of the server URL: the saved setting, else `SANDESH_SERVER_URL`, else
 * `http://127.0.0.1:3000` (the server's `npm start` default). A saved choice wins over the
 * environment because the user made it in the app on purpose.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DEVICE_ID_PATTERN } from '@shared/constants';

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:3000';
export const SERVER_URL_ENV = 'SANDESH_SERVER_URL';
export const SETTINGS_FILE = 'settings.json';
const MAX_SERVER_URL_LENGTH = 2048;

/**
 * True for hosts on this computer. Plain http is accepted only for them: the renderer runs on the
 * secure `app://` scheme, so Chromium blocks requests to other http origins as mixed content, and
 * the session token must not cross a network in clear text anyway.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * A server URL as the user may type it: https (or http on this computer), a host, no credentials,
 * no path beyond `/`, no query or fragment. Parses to the normalised origin
 * (`https://example.com`, lower-case host, default port dropped). A path is refused rather than
 * dropped: a server mounted under a path would otherwise be silently replaced by the host's root.
 */
export const ZServerUrl = z
  .string({ error: 'The server URL must be text' })
  .trim()
  .min(1, { error: 'Enter the server URL' })
  .max(MAX_SERVER_URL_LENGTH, { error: 'The server URL is too long' })
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Enter a valid URL, e.g. https://sandesh.example.com' });
      return z.NEVER;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: 'The server URL must start with http:// or https://' });
      return z.NEVER;
    }
    if (url.hostname === '') {
      ctx.addIssue({ code: 'custom', message: 'The server URL needs a host name' });
      return z.NEVER;
    }
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      ctx.addIssue({ code: 'custom', message: 'Use https:// for a server on another computer (http:// only for this one)' });
      return z.NEVER;
    }
    if (url.username !== '' || url.password !== '') {
      ctx.addIssue({ code: 'custom', message: 'The server URL must not contain a user name or password' });
      return z.NEVER;
    }
    if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
      ctx.addIssue({ code: 'custom', message: 'The server URL must not contain a path, query or fragment' });
      return z.NEVER;
    }
    return url.origin;
  });

/**
 * An upload of a prepared spreadsheet not finished yet: what a new run of the app needs
 * to resume it. `uploadId` is null until the server made the upload, or once it must start again
 * (its file changed, or the server refused the parts it put together).
 */
export const ZPendingUpload = z.object({
  preparedId: z.string().min(1).max(200),
  uploadId: z.string().min(1).max(100).nullable(),
  /** The server origin the upload was made on: another server does not know it. */
  serverUrl: z.string().min(1).max(MAX_SERVER_URL_LENGTH),
  path: z.string().min(1).max(4096),
  filename: z.string().min(1).max(255),
  size: z.number().int().min(1),
  /** The file's modification time when its SHA-256 was computed: a changed file is sent again. */
  mtimeMs: z.number().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  partSize: z.number().int().min(1),
  partCount: z.number().int().min(1),
  expiresAt: z.string().min(1).max(40),
  state: z.enum(['uploading', 'paused', 'failed']),
  sentBytes: z.number().int().min(0),
  error: z.string().max(1000).optional(),
});
export type PendingUpload = z.infer<typeof ZPendingUpload>;

/** The settings file. Unknown keys are kept so that an older app does not erase a newer one's. */
const ZSettingsFile = z.looseObject({ serverUrl: z.unknown().optional(), deviceId: z.unknown().optional(), pendingUploads: z.unknown().optional() });

/** How many recently opened spreadsheets the app remembers. */
export const RECENT_FILES_LIMIT = 10;
const MAX_RECENT_PATH_LENGTH = 4096;

/**
 * The recent spreadsheets as saved: absolute paths, newest first. A hand-edited or corrupt entry
 * is dropped rather than failing the whole list.
 */
const ZRecentFiles = z
  .array(z.unknown())
  .catch([])
  .transform((entries) =>
    entries
      .filter((entry): entry is string => typeof entry === 'string' && entry.length > 0 && entry.length <= MAX_RECENT_PATH_LENGTH && path.isAbsolute(entry))
      .slice(0, RECENT_FILES_LIMIT),
  );

/** The list after opening `filePath`: it moves to the front, once, and the oldest fall off. */
export function withRecentFile(current: readonly string[], filePath: string): string[] {
  return [filePath, ...current.filter((entry) => entry !== filePath)].slice(0, RECENT_FILES_LIMIT);
}

/** First issue's message: what the bridge answers in `{ok: false, error}`. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}

/**
 * The URL used when nothing is saved. An invalid `SANDESH_SERVER_URL` is ignored (with a warning
 * for the log) rather than stopping a desktop app at launch.
 */
export function resolveDefaultServerUrl(env: Readonly<Record<string, string | undefined>>): {
  url: string;
  warning?: string;
} {
  const fromEnv = env[SERVER_URL_ENV];
  if (fromEnv === undefined || fromEnv.trim() === '') return { url: DEFAULT_SERVER_URL };
  const parsed = ZServerUrl.safeParse(fromEnv);
  if (parsed.success) return { url: parsed.data };
  return {
    url: DEFAULT_SERVER_URL,
    warning: `${SERVER_URL_ENV} ignored (${firstIssueMessage(parsed.error)}); using ${DEFAULT_SERVER_URL}`,
  };
}

export interface SettingsStore {
  /** The normalised server origin the app talks to. */
  getServerUrl(): Promise<string>;
  /** Validates, normalises and saves; resolves to the saved origin. Rejects with a ZodError when invalid. */
  setServerUrl(input: unknown): Promise<string>;
  /**
   * This install's device id: made at first use and kept, so the server knows the app as one
   * device across launches and sign-ins (a sign-in from a device it does not know is told to the user).
   */
  getDeviceId(): Promise<string>;
  /** Uploads not finished yet (entries that do not read as one are dropped, with a warning). */
  getPendingUploads(): Promise<PendingUpload[]>;
  /** Replaces the list (checked: rejects with a ZodError when an entry is not an upload). */
  setPendingUploads(uploads: readonly PendingUpload[]): Promise<void>;
  /** Recently opened spreadsheets' paths, newest first (at most RECENT_FILES_LIMIT; may no longer exist). */
  getRecentFiles(): Promise<string[]>;
  /** Puts an absolute path at the front of the recent files. */
  addRecentFile(filePath: string): Promise<void>;
  /** Drops paths from the recent files (those found missing). */
  removeRecentFiles(filePaths: readonly string[]): Promise<void>;
}

export interface SettingsStoreOptions {
  /** Directory holding settings.json; created on first save. */
  dir: string;
  /** Environment to read SANDESH_SERVER_URL from; defaults to process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Receives non-fatal problems (invalid env, unreadable file) for the log. */
  onWarning?: (message: string) => void;
}

export function createSettingsStore(options: SettingsStoreOptions): SettingsStore {
  const filePath = path.join(options.dir, SETTINGS_FILE);
  const warn = options.onWarning ?? (() => undefined);
  const fallback = resolveDefaultServerUrl(options.env ?? process.env);
  if (fallback.warning) warn(fallback.warning);
  let writes: Promise<unknown> = Promise.resolve();

  async function readSettingsFile(): Promise<Record<string, unknown>> {
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        warn(`Could not read ${filePath}: ${String(error)}`);
      }
      return {};
    }
    try {
      const parsed = ZSettingsFile.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch {
      // fall through: a corrupt file must not keep the app from starting
    }
    warn(`Ignoring unreadable settings file ${filePath}`);
    return {};
  }

  /**
   * Saves the keys `change` answers for the current settings (nothing when it answers null). Saves
   * run one after another so that two quick changes cannot interleave their renames.
   */
  async function update(change: (current: Record<string, unknown>) => Record<string, unknown> | null): Promise<void> {
    const save = writes.then(async () => {
      const current = await readSettingsFile();
      const patch = change(current);
      if (patch === null) return;
      await mkdir(options.dir, { recursive: true });
      // Write-then-rename so a crash mid-write never leaves a truncated settings file.
      const temporary = `${filePath}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify({ ...current, ...patch }, null, 2)}\n`, {
        encoding: 'utf8',
        mode: 0o600,
      });
      await rename(temporary, filePath);
    });
    writes = save.catch(() => undefined);
    await save;
  }

  return {
    async getServerUrl() {
      const saved = (await readSettingsFile()).serverUrl;
      if (saved === undefined) return fallback.url;
      const parsed = ZServerUrl.safeParse(saved);
      if (parsed.success) return parsed.data;
      warn(`Ignoring invalid saved server URL in ${filePath}`);
      return fallback.url;
    },

    async setServerUrl(input) {
      const serverUrl = ZServerUrl.parse(input);
      await update(() => ({ serverUrl }));
      return serverUrl;
    },

    async getDeviceId() {
      let deviceId = '';
      // Read and made inside the write queue: two first calls at once keep one id, not two.
      await update((current) => {
        const kept = current.deviceId;
        if (typeof kept === 'string' && DEVICE_ID_PATTERN.test(kept)) {
          deviceId = kept;
          return null;
        }
        deviceId = randomUUID();
        return { deviceId };
      });
      return deviceId;
    },

    async getPendingUploads() {
      const saved = (await readSettingsFile()).pendingUploads;
      if (saved === undefined) return [];
      if (!Array.isArray(saved)) {
        warn(`Ignoring unreadable pendingUploads in ${filePath}`);
        return [];
      }
      const uploads: PendingUpload[] = [];
      for (const entry of saved) {
        const parsed = ZPendingUpload.safeParse(entry);
        if (parsed.success) uploads.push(parsed.data);
        else warn(`Ignoring an unreadable pending upload in ${filePath}`);
      }
      return uploads;
    },

    async setPendingUploads(uploads) {
      const pendingUploads = z.array(ZPendingUpload).parse(uploads);
      await update(() => ({ pendingUploads }));
    },

    async getRecentFiles() {
      return ZRecentFiles.parse((await readSettingsFile()).recentFiles);
    },

    async addRecentFile(filePath) {
      if (!path.isAbsolute(filePath)) throw new Error('Recent files are kept as absolute paths');
      await update((current) => ({ recentFiles: withRecentFile(ZRecentFiles.parse(current.recentFiles), filePath) }));
    },

    async removeRecentFiles(filePaths) {
      const gone = new Set(filePaths);
      await update((current) => {
        const kept = ZRecentFiles.parse(current.recentFiles);
        const remaining = kept.filter((entry) => !gone.has(entry));
        return remaining.length === kept.length ? null : { recentFiles: remaining };
      });
    },
  };
}
