/**
 * Business constants and limits from the specification, in one place for the server and the
 * renderer. Durations are in the unit their name says.
 */

export const BRAND_DEFAULT_NAME = 'Sandesh';

export const SESSION = {
  /** Server-enforced inactivity timeout (spec 000 §9: 10 minutes). Configurable on the server. */
  idleTimeoutSeconds: 600,
  /** The warning dialog opens this long before the timeout (8 minutes into 10). */
  warningLeadSeconds: 120,
  /** Countdown shown in the warning dialog. */
  countdownSeconds: 120,
  /** Client activity is reported to the server at most this often. */
  activityDebounceMs: 5_000,
  /** The client asks the server whether the session is alive this often. */
  checkIntervalMs: 30_000,
} as const;

export const AUTH = {
  passwordMinLength: 6,
  passwordMaxLength: 128,
  strengthMediumFrom: 6,
  strengthStrongFrom: 10,
  nameMinLength: 2,
  nameMaxLength: 100,
  usernameMinLength: 3,
  usernameMaxLength: 50,
  emailMaxLength: 254,
  otpLength: 6,
  otpTtlMinutes: 10,
  otpMaxAttempts: 5,
  /** After a verified OTP, the password must be reset within this window. */
  resetWindowMinutes: 10,
  signupPhoneMinDigits: 11,
  signupPhoneMaxDigits: 15,
  loginRedirectDelayMs: 500,
  signupRedirectDelayMs: 2_000,
  /** Wrong passwords allowed per username+IP before a block. */
  loginFailuresPerUsername: 5,
  /** Wrong passwords allowed per IP (all usernames) before a block. */
  loginFailuresPerIp: 30,
  loginFailureWindowSeconds: 15 * 60,
  loginBlockSeconds: 15 * 60,
  /**
   * Wrong passwords for one username (from any address) before each further try must wait;
   * the wait doubles per failure up to loginDelayMaxSeconds. Never a long lock-out.
   */
  loginFailuresBeforeDelay: 10,
  /** Wrong current passwords on Change Password per account in the login window, then a wait. */
  changePasswordFailuresPerUser: 5,
  /** The OTP step offers "Resend code" this long after a code was sent (within the request limits). */
  otpResendAfterSeconds: 60,
  loginDelayMaxSeconds: 30,
  /** Forgot-password requests per username+IP and per IP in the window. */
  otpRequestsPerWindow: 5,
  otpRequestWindowSeconds: 15 * 60,
  /** Reset codes sent to one phone number per day, whoever asks. */
  otpCodesPerPhonePerDay: 5,
  /** Code checks per username and per IP in the request window (argon2 each). */
  otpVerifyPerUsername: 10,
  otpVerifyPerIp: 30,
  /** Sign-ups per IP per hour (each hashes a password with argon2). */
  signupsPerIpPerHour: 10,
} as const;

/** The example number shown in phone-format messages. */
export const PHONE_EXAMPLE = '919876543210';

export const STORAGE_KEYS = {
  user: 'user',
  theme: 'theme',
} as const;

export const NOTIFICATIONS = {
  listCap: 50,
  autoDismissMs: 4_000,
  toastDurationMs: 5_000,
  toastSwipeThreshold: 50,
  /** A dismissed toast is dropped from the toast store after this long (spec 000 §4.5). */
  dismissedToastRemoveMs: 1_000_000,
  /** The admin notification test page auto-dismisses success and info after this long. */
  testPageAutoDismissMs: 6_000,
  /** Kept per user: the newest this many are listed by the bell. */
  listLimit: 50,
  /** Low-balance alert threshold when the user has set none: Rs 100 in credit units. */
  lowBalanceDefaultUnits: 100 * 10_000,
  /** Server-Sent Events: a comment line this often keeps proxies from closing the stream. */
  streamHeartbeatMs: 15_000,
  /** The browser reconnects after this long when the stream drops. */
  streamRetryMs: 5_000,
  /**
   * A campaign's `campaign_progress` event goes out at most this often (the last state always
   * goes), and less often for large campaigns: reading its counts costs in proportion to its
   * messages, so the interval grows by a second per `campaignProgressMessagesPerSecond` messages,
   * up to `campaignProgressMaxIntervalMs`.
   */
  campaignProgressThrottleMs: 1_000,
  campaignProgressMessagesPerSecond: 20_000,
  campaignProgressMaxIntervalMs: 10_000,
  /**
   * A finished campaign is still followed this long (delivery reports keep arriving): the send
   * dialog keeps reading it, and a stream catches up on it.
   */
  campaignFollowMs: 120_000,
  /** A stream catches up on at most this many of its user's campaigns. */
  campaignFollowLimit: 10,
  /** How often each instance looks for stalled campaigns. */
  stallCheckMs: 60_000,
} as const;

export const LAYOUT = {
  sidebarOpenMinWidth: 1024,
  dashboardClockRefreshMs: 60_000,
} as const;

/** Money: integer credit units of 1/10000 rupee. One credit is one rupee. */
export const CREDIT_UNITS_PER_RUPEE = 10_000;

export const USERS = {
  /** Credits an admin-created user starts with unless the payload says otherwise. */
  defaultCreatedUserCredits: 1000,
  /** Credits a self-registered user starts with. */
  signupCredits: 0,
} as const;

export const TOPUP = {
  presets: [1, 1000, 5000, 10000],
  minRupees: 1,
  maxRupees: 100_000,
  balanceRefreshAfterVerifyMs: 500,
  walletRefreshAfterSuccessMs: 1_000,
  reloadAfterVerifyMs: 3_000,
} as const;

/** Quick amounts on the admin wallet screen (spec 001 §9). */
export const ADMIN_QUICK_AMOUNTS = [10, 50, 100, 500, 1000, 5000] as const;

export const PRICE_DEFAULTS = {
  marketing: '0.80',
  utility: '0.15',
  authentication: '0.15',
  /** Service replies inside the customer service window: Meta does not charge them. */
  service: '0.00',
} as const;

export const LOGS = {
  retentionDays: 90,
  cleanupHourUtc: 2,
} as const;

/**
 * The daily sync of every business's templates from Meta, which heals template webhooks that never
 * arrived: at this hour of the Indian day, before the working day's sends.
 */
export const TEMPLATE_SYNC = {
  dailyHourIst: 4,
} as const;

/** Every Cloud API number's health is read from Meta once a day at this hour, India's time (after the template sync). */
export const NUMBER_HEALTH = {
  dailyHourIst: 5,
} as const;


/** Refund, billing and support promises of the legal pages (spec 000 §4.7 and §9). */
export const POLICY = {
  /** A completely unused top-up may be refunded within this many days (an admin fee possible). */
  refundWindowDays: 7,
  /** Billing disputes must be raised within this many days of the invoice date. */
  disputeWindowDays: 30,
  resolutionBusinessDaysMin: 7,
  resolutionBusinessDaysMax: 15,
  /** Credits may expire this long after purchase when expiry is enabled (optional). */
  creditExpiryMonths: 12,
  supportReplyHoursMin: 24,
  supportReplyHoursMax: 48,
  /** Children under this age are not targeted (privacy policy). */
  minimumUserAge: 16,
} as const;

/** Claims the public pages make (spec 000 §9, 002 §9). */
export const CLAIMS = {
  rating: '4.9',
  ratingScale: 5,
  uptimePercent: '99.9',
  copyrightYear: 2025,
} as const;

/** The public send API (spec 002 §9, docs/decisions/2026-11-21-accounts-and-api-keys.md). */
export const PUBLIC_API = {
  rateLimitRequests: 100,
  rateLimitWindowMinutes: 15,
  /** Timeout used by the sample Python request in the docs. */
  sampleTimeoutSeconds: 30,
} as const;

/** Template limits (spec 002 §9). */
export const TEMPLATE_LIMITS = {
  nameMax: 60,
  headerTextMax: 60,
  footerTextMax: 60,
  buttonTextMax: 25,
  buttonsMax: 10,
  otpButtonTextMax: 25,
  codeExpiryMinutesMin: 1,
  codeExpiryMinutesMax: 90,
  codeExpiryMinutesDefault: 10,
  headerImageMaxMb: 5,
  headerDocumentMaxMb: 5,
  headerVideoMaxMb: 16,
} as const;

/**
 * Per-user storage bounds: template header files and draft templates are kept until deleted, so
 * each user's share of the disk and of the template list is capped.
 */
export const STORAGE_LIMITS = {
  /** Total size of one user's template header files. */
  templateMediaPerUserMb: 200,
  /** Draft templates one user may keep at once. */
  draftTemplatesPerUser: 100,
  /** A quick-send header image no campaign references is removed once this old. */
  orphanCampaignMediaMinutes: 60,
} as const;

/** Sending limits (spec 002 §9). */
export const SENDING = {
  /** More recipients than this go through the bulk path. */
  bulkThreshold: 50,
  recipientFileMaxMb: 10,
  sendImageMaxMb: 5,
  /** The header balance is re-read this often while one of the user's campaigns runs (refunds land as messages fail). */
  balanceRefreshWhileSendingMs: 10_000,
  /** Skipped rows listed in a preview or a batch answer (all of them are counted). */
  skippedRowsListed: 10_000,
} as const;

/** Provider settings and business info (spec 001 §5 and §9). */
export const PROVIDERS = {
  channelIdMin: 2,
  channelIdMax: 128,
  apiKeyMin: 10,
  apiKeyMax: 4096,
  /** The reveal button shows the API key only once it has been held this long. */
  revealHoldMs: 800,
  /** How long the webhook URL's "Copied" indicator stays. */
  copiedIndicatorMs: 2000,
  businessNameMax: 100,
  providerIdMax: 100,
  accessTokenMax: 4096,
  webhookTokenMax: 256,
  appSecretMax: 256,
  webhookUrlMax: 500,
  /** Path of the webhook endpoint under the server's public address. */
  webhookPath: '/api/webhooks/whatsapp',
} as const;

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Routes each role lands on after login or when a public-only page is visited signed in. */
export const ROLE_HOME: Record<Role, string> = {
  admin: '/admin/dashboard',
  user: '/user/dashboard',
};

/** Header name a desktop client sends so that login also returns the bearer token. */
export const DESKTOP_CLIENT_HEADER = 'X-Client';
export const DESKTOP_CLIENT_VALUE = 'desktop';

/**
 * The desktop app's own stable device id (kept in its settings), sent with its requests so that a
 * sign-in from a desktop the user has not used before can be told to them. Browsers are
 * known by an httpOnly cookie instead (`DEVICE_COOKIE`).
 */
export const DEVICE_ID_HEADER = 'X-Sandesh-Device';
export const DEVICE_COOKIE = 'sandesh_device';
/** A device id as a client may send it: 16 to 128 URL-safe characters (a UUID, base64url bytes). */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** The integrator platform. */
export const INTEGRATIONS = {
  /** Idempotency-Key: at most this many characters (Stripe's limit). */
  idempotencyKeyMaxLength: 255,
  /** A key answers its first response again for this long. */
  idempotencyWindowHours: 24,
  /** A request whose twin with the same key is still running waits this long, then answers 409. */
  idempotencyWaitSeconds: 10,
  /**
   * A key still `processing` after this long belongs to a request whose server stopped; a retry
   * may then run it again (see docs/api.md, `Idempotency-Key`).
   */
  idempotencyAbandonedMinutes: 5,
  /** A webhook request gets this long to answer (connect, headers and body). */
  webhookTimeoutSeconds: 10,
  /** A delivery is retried for this long after it was created, then marked failed. */
  webhookRetryHours: 24,
  /** The first retry waits about this long; each next one twice as long (with jitter) ... */
  webhookFirstRetrySeconds: 30,
  /** ... up to this long. */
  webhookMaxRetrySeconds: 2 * 60 * 60,
  /** An endpoint failing this long without one success is disabled and its owner notified. */
  webhookDisableAfterDays: 3,
} as const;

/** Resumable uploads. Part size, the largest file and the per-user quota are configuration. */
export const UPLOADS = {
  /** An upload, finished or not, is deleted this long after it was created. */
  expiryHours: 24,
  /** How often each instance deletes expired uploads (rows and files). */
  sweepEveryMs: 10 * 60_000,
  /** Data rows a completed upload answers as its sample. */
  sampleRows: 20,
  /** Data rows one uploaded file may hold; a longer file is refused, never cut. */
  maxRows: 1_000_000,
  /** Parts are numbered from 1 to at most this (the S3 convention). */
  maxParts: 10_000,
  filenameMaxLength: 255,
} as const;

/** Conversations: what contacts send us and the service replies our users answer with. */
export const CONVERSATIONS = {
  /** Meta's customer service window: free-form replies are allowed this long after the contact's last message. */
  serviceWindowHours: 24,
  /**
   * A reply without `context` or a button payload (a contact typing after a campaign) is counted
   * as the reply to the latest campaign message sent to that contact this long before it.
   */
  attributionHours: 24,
  /** The longest text stored of a message, and Meta's limit on a text message's body. */
  textMaxChars: 4_096,
  /** Conversations and thread messages per page. */
  pageSize: 50,
  /** Incoming messages applied per batch (linking, media, integrator events). */
  applyBatch: 500,
  /** Media fetches tried this many times before the message keeps no file. */
  mediaTries: 3,
  /** A fetched or uploaded file larger than this is refused (Meta's largest, a document, is 100 MB; we keep less). */
  mediaMaxBytes: 16 * 1024 * 1024,
  /** The file types we keep from contacts and accept as replies (Meta's supported media types). */
  mediaTypes: {
    'image/jpeg': 'jpg',
    'image/png': 'png',
    'image/webp': 'webp',
    'video/mp4': 'mp4',
    'video/3gpp': '3gp',
    'audio/aac': 'aac',
    'audio/mp4': 'm4a',
    'audio/mpeg': 'mp3',
    'audio/amr': 'amr',
    'audio/ogg': 'ogg',
    'application/pdf': 'pdf',
  } as Readonly<Record<string, string>>,
} as const;

/** The contact book and its segments. */
export const CONTACTS = {
  /** Contacts one `POST /api/contacts/bulk` call may carry. */
  bulkMax: 10_000,
  /** Contacts a list page answers. */
  pageSize: 100,
  nameMaxLength: 200,
  /** Attribute names: a letter, then letters, digits and underscores. */
  attributeNameMaxLength: 64,
  attributeValueMaxLength: 500,
  /** Attributes one owner may define, by type: each is a column of the contacts table. */
  attributeSlots: { text: 20, number: 10, date: 10 },
  tagMaxLength: 64,
  tagsMaxPerContact: 50,
  optInSourceMaxLength: 100,
  optInEvidenceMaxLength: 1000,
  segmentNameMaxLength: 100,
  segmentsMaxPerOwner: 200,
  /** Conditions of each kind one segment filter may hold. */
  segmentConditionsMax: 20,
  /** "Replied within N days": at most this many days. */
  activityDaysMax: 3650,
} as const;

/** Teams inside a customer account. */
export const TEAM = {
  /** An invitation link is good for this many days, once. */
  inviteTtlDays: 7,
} as const;

/** What the opt-out rule made of an incoming message: it opted the sender out, back in, or was flagged for the user to decide. */
export const REPLY_EFFECTS = ['opted_out', 'opted_in', 'flagged'] as const;
export type TReplyEffect = (typeof REPLY_EFFECTS)[number];
