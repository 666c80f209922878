/**
 * Response shapes the server's presenters produce and the renderer reads. Keys follow the
 * specification exactly: they are a contract with existing clients.
 */
import type { TeamRole } from './teamRoles';
import type { Role } from './constants';
import type { TFieldMessage } from './schemas/common';
import type { TCustomPriceSet, TPriceSet } from './pricing';
import type { z } from 'zod';
import type { ZTaxDocument, ZTaxDocumentsPage } from './schemas/wallet';

/** The session user (spec 000 §3), kept by the browser under the storage key `user`. */
export interface TUser {
  id: number;
  name: string;
  email: string;
  username: string;
  role: Role;
  phoneNumber: string | null;
  /** Rupees, rounded to 2 decimals. */
  creditBalance: number;
  /** Printed on top-up receipts; null until the user enters one in the profile. */
  businessName: string | null;
  gstin: string | null;
  /** Printed on tax invoices. */
  billingAddress: string | null;
  /** GST state code: the place of supply when known. */
  billingState: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * The signed-in person's current account (GET /api/auth/me and /session only): its id, name and
   * their role in it; null role when they belong to no account any more.
   */
  account?: { id: number; name: string; role: TeamRole | null };
}

/** A user row of the admin list: the session user plus the provider configuration summary. */
export interface TAdminUser extends TUser {
  /** True when business info exists for the user (spec 001: Configured / Not configured). */
  isConfigured: boolean;
  businessInfo: TBusinessInfoSummary | null;
}

export interface TBusinessInfoSummary {
  businessName: string | null;
  whatsappNumber: string | null;
  isActive: boolean;
}

export interface TAdminStats {
  totalUsers: number;
  regularUsers: number;
  adminUsers: number;
  configuredUsers: number;
  /** Sum of every wallet, rupees to 2 decimals. */
  totalCredits: number;
  /** Billable messages accepted today and this calendar month (India Standard Time), all users, less cancelled ones. */
  messagesToday: number;
  messagesThisMonth: number;
  /** Campaign charges less refunds this month, all users, rupees. */
  spendThisMonth: number;
}

export interface TErrorResponse {
  error: string;
  code: string;
  field?: string;
  details?: TFieldMessage[];
  /** `POST /api/uploads/{id}/complete` answering 409: the part numbers still to send. */
  missingParts?: number[];
}

export interface TLoginResponse {
  success: true;
  message: string;
  user: TUser;
  /** Only for desktop clients (header X-Client: desktop): the bearer token to keep. */
  token?: string;
  /** Seconds of inactivity after which the server ends the session. */
  idleTimeoutSeconds: number;
}

export interface TMeResponse {
  success: true;
  user: TUser;
  idleTimeoutSeconds: number;
}

/**
 * `GET /api/auth/session`: who is signed in, if anyone. A visitor is an answer (`user: null`, 200),
 * not an error, so public pages can ask without a failed request. `idleTimeoutSeconds` comes
 * with a user, as in TMeResponse.
 */
export type TSessionResponse = { user: null } | { user: TUser; idleTimeoutSeconds: number };

export interface TForgotPasswordResponse {
  success: true;
  otpSent: true;
  message: string;
  /** Last four digits of the phone the code was sent to. */
  phoneLast4: string;
}

export interface TVerifyOtpResponse {
  success: true;
  resetAllowed: true;
  message: string;
  /** Only for desktop clients: proof of the verified code for the reset call. */
  resetToken?: string;
}

export interface THealthResponse {
  status: 'ok';
  version: string;
  database: { kind: 'sqlite' | 'postgresql'; version: string };
  uptimeSeconds: number;
}

/** `GET /api/public-config`: what the web app may know about the deployment. */
export interface TPublicConfig {
  brandName: string;
  support: { phone: string; email: string; address: string };
  /** `development`, `test` or `production`. */
  environment: string;
  /** Seconds of inactivity after which the server ends a session. */
  idleTimeoutSeconds: number;
}

export interface TCreditHistoryEntry {
  id: number;
  /** Type code; codes containing ADD are credits. */
  type: string;
  description: string;
  timestamp: string;
  /** Signed rupees, 2 decimals. */
  amount: number;
  balanceAfter: number;
  templateName?: string;
  templateCategory?: string;
}

/** GET /api/credits/history?page&limit */
export interface TCreditHistoryResponse {
  success: true;
  history: TCreditHistoryEntry[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };
}

/** GET/PUT /api/admin/pricing/users/{userId}/pricing */
export interface TUserPricingResponse {
  success: true;
  mode: 'default' | 'custom';
  custom: TCustomPriceSet;
  effective: TPriceSet;
  defaults: TPriceSet;
  message?: string;
}

/** GET /api/admin/pricing/defaults: the spec 001 shape (defaults) and the spec 002 fallback shape (top level). */
export interface TPriceDefaultsResponse {
  success: true;
  defaults: TPriceSet;
  marketing: string;
  utility: string;
  authentication: string;
  service: string;
  currency: 'INR';
  updatedAt: string | null;
  message?: string;
}

/** GET /api/send/my-pricing */
export interface TMyPricingResponse {
  success: true;
  mode: 'default' | 'custom';
  effective: TPriceSet & { currency: 'INR' };
}

/** GET /api/admin/pricing/stats: real figures for Pricing Management's cards. */
export interface TPricingStats {
  totalUsers: number;
  customPricingUsers: number;
  defaultPricingUsers: number;
  /** Average effective marketing price over regular users, INR string. */
  averageMarketing: string;
  averageUtility: string;
  averageAuthentication: string;
  averageService: string;
}

/** POST /api/payments/razorpay/order */
export interface TCreateOrderResponse {
  success: true;
  keyId: string;
  /** Paise. */
  amount: number;
  currency: 'INR';
  orderId: string;
  /** Credits the order will add. */
  amountCredits: number;
  /** The GST in `amount`; null without GST. */
  tax: TOrderTax | null;
  /** The checkout script to load on demand. */
  checkoutUrl: string;
  /** True for the development sandbox checkout (no real money). */
  sandbox: boolean;
  /** Brand name for the checkout window. */
  name: string;
  notes: { purpose: 'wallet_topup'; credits: string };
  prefill: { name: string; email: string; contact: string };
}

/** POST /api/payments/razorpay/verify */
export interface TVerifyPaymentResponse {
  success: true;
  message: string;
  /** False when the webhook (or an earlier verify) had already added these credits. */
  credited: boolean;
  creditBalance: number;
}

/** GET /api/payments/config: whether the wallet can take online payments. */
export interface TPaymentsConfig {
  success: true;
  enabled: boolean;
  sandbox: boolean;
  checkoutUrl: string | null;
  /** GST on top-ups, for the tax shown before payment; null when off. */
  gst: TGstTerms | null;
}

export interface TGstTerms {
  mode: 'exclusive' | 'inclusive';
  /** 18 % is 1800. */
  rateBasisPoints: number;
  /** The supplier's state code: a buyer in it pays CGST + SGST, others IGST. */
  supplierStateCode: string;
  /** This user's place of supply (their GSTIN's state, else the supplier's). */
  placeOfSupply: string;
}

/** A top-up order's tax, rupee strings exact to the paisa. */
export interface TOrderTax {
  taxable: string;
  cgst: string;
  sgst: string;
  igst: string;
  total: string;
  place_of_supply: string;
}

/** GET /api/wallet/invoices: one tax invoice or credit note. Amounts are rupee strings exact to the paisa. */
export type TTaxDocument = z.infer<typeof ZTaxDocument>;
export type TTaxDocumentsResponse = z.infer<typeof ZTaxDocumentsPage>;

/** GET /api/admin/invoices?format=json */
export interface TInvoiceRegisterResponse {
  success: true;
  month: string;
  documents: (TTaxDocument & { user_id: number; buyer_name: string })[];
  gstr1: { b2b: string[][]; b2cl: string[][]; b2cs: string[][]; cdnr: string[][] };
  columns: { b2b: readonly string[]; b2cl: readonly string[]; b2cs: readonly string[]; cdnr: readonly string[] };
}

/** POST /api/admin/users/{id}/credits */
export interface TCreditAdjustmentResponse {
  success: true;
  message: string;
  /** Rupees actually moved (a deduction floors at zero). */
  amount: number;
  creditBalance: number;
  transaction: TCreditHistoryEntry;
}

/** GET /api/admin/users/{id}/details */
export interface TAdminUserDetails {
  success: true;
  user: Omit<TAdminUser, 'businessInfo'> & { businessInfo: TBusinessInfo | null };
}

/**
 * A user's business info as admins see it (spec 001 §3). The secrets are write-only: only
 * whether each is stored is answered.
 */
export interface TBusinessInfo extends TBusinessInfoSummary {
  id: number;
  whatsappNumberId: string | null;
  wabaId: string | null;
  webhookUrl: string | null;
  accessTokenSet: boolean;
  webhookVerifyTokenSet: boolean;
  appSecretSet: boolean;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/admin/users/{id}/business-info */
export interface TBusinessInfoResponse {
  success: true;
  businessInfo: TBusinessInfo | null;
}

/** PUT /api/admin/users/{id}/business-info */
export interface TBusinessInfoSaveResponse {
  success: true;
  message: string;
  businessInfo: TBusinessInfo;
}

/** GET /api/admin/whatsapp/settings/{userId} (spec 001 §3 "Provider settings"). */
export interface TProviderSettings {
  userId: number;
  /** 'Not Set' when the user has no business name. */
  businessName: string;
  /** 'Not Configured' when the user has no business WhatsApp number. */
  whatsappNumber: string;
  provider: 'channel';
  channelId: string | null;
  apiKeySet: boolean;
  /** Where the provider posts status webhooks; read-only. */
  webhookUrl: string;
  updatedAt: string | null;
}

export interface TProviderSettingsResponse extends TProviderSettings {
  success: true;
}

/** PUT /api/admin/whatsapp/settings/{userId} */
export interface TProviderSettingsSaveResponse {
  success: true;
  message: string;
  channelId: string;
  apiKeySet: boolean;
  updatedAt: string;
  /**
   * The webhook registration at 360dialog made by this save: `registered` true, or false with the
   * reason in `error`; null when no API key was known to register with.
   */
  webhook: { registered: boolean; error: string | null } | null;
}

/** A template component in the WhatsApp Cloud API's shape. */
export interface TTemplateComponent {
  type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS';
  format?: 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT';
  text?: string;
  buttons?: { type: string; text: string; url?: string; phone_number?: string; otp_type?: string; opt_out?: boolean }[];
  add_security_recommendation?: boolean;
  code_expiration_minutes?: number;
}

export interface TTemplate {
  id: number;
  name: string;
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  language: string;
  status: string;
  components: TTemplateComponent[];
  /** Variables in order (numeric, then named). */
  variables: string[];
  variableExamples: Record<string, string>;
  headerType: 'none' | 'text' | 'image' | 'video' | 'document';
  /** Where the owner (or an admin) can fetch the header file. */
  headerMediaUrl: string | null;
  headerMediaName: string | null;
  qualityRating: string | null;
  rejectionReason: string | null;
  createdAt: string;
  updatedAt: string;
  submittedAt: string | null;
  /**
   * The review's second part: PENDING after the administrator approved it, while Meta reviews it
   * ("In review at Meta"). `metaSubmittedAt`: when Meta took it (null while a try is still to
   * come); `metaSubmitError`: why the last try did not reach Meta (it is tried again).
   */
  inMetaReview: boolean;
  metaSubmittedAt: string | null;
  metaSubmitError: string | null;
  /** When a Sync from Meta imported it (approved at Meta, never built here); null or absent otherwise. */
  importedAt?: string | null;
  /** When the administrator approved or rejected it. */
  reviewedAt?: string | null;
  /** When Meta last rated its quality (GREEN, YELLOW, RED, UNKNOWN). */
  qualityUpdatedAt?: string | null;
  /** Meta's last status event (PAUSED, REINSTATED, FLAGGED, ...), its reason and time. */
  metaStatus?: string | null;
  metaStatusReason?: string | null;
  metaStatusAt?: string | null;
  /** Meta's pause title and description while paused. */
  pauseTitle?: string | null;
  pauseDescription?: string | null;
}

/** What a sync from Meta did (POST /api/templates/sync, POST /api/admin/users/{id}/templates/sync). */
export interface TTemplateSyncResult {
  /** Approved at Meta, unknown here: added as APPROVED. */
  imported: number;
  /** Known here: Meta's status, category, quality or id taken. */
  updated: number;
  /** Nothing to change, or not approved at Meta and unknown here (not imported). */
  unchanged: number;
  /** Approved at Meta with parts Sandesh cannot send (carousels, flows, location headers, ...): not imported. */
  failed: number;
}

export interface TTemplateSyncResponse {
  success: true;
  message: string;
  data: TTemplateSyncResult;
}

export interface TTemplatePagination {
  currentPage: number;
  totalPages: number;
  totalTemplates: number;
  hasPrev: boolean;
  hasNext: boolean;
}

/** GET /api/templates */
export interface TTemplateListResponse {
  success: true;
  data: TTemplate[];
  pagination: TTemplatePagination;
}

export interface TTemplateStats {
  total: number;
  pending: number;
  approved: number;
  rejected: number;
}

/** One row of the admin review queue: the template and who owns it. */
export interface TAdminQueuedTemplate extends TTemplate {
  owner: { id: number; name: string; username: string };
}

/** GET /api/admin/templates */
export interface TAdminTemplateQueueResponse {
  success: true;
  templates: TAdminQueuedTemplate[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

/** GET /api/admin/templates/pending-count */
export interface TAdminPendingTemplatesResponse {
  success: true;
  pending: number;
}

export type TOnboardingStepKey = 'topUp' | 'createTemplate' | 'templateApproved' | 'firstSend' | 'createApiKey';

/** GET /api/onboarding and POST /api/onboarding/dismiss */
export interface TOnboardingResponse {
  success: true;
  onboarding: {
    steps: { key: TOnboardingStepKey; done: boolean }[];
    completed: number;
    total: number;
    dismissed: boolean;
    /** Shown on the dashboard: not dismissed and not every step done. */
    visible: boolean;
  };
}

/** POST /api/whatsapp/template-details */
export interface TTemplateDetails {
  variables: { index: string; placeholder: string; required: boolean; value: string }[];
  buttons: { type: string; text: string; url?: string; phone_number?: string; index: number }[];
  hasVariables: boolean;
  hasButtons: boolean;
  preview: string;
  category: string;
  templateTypeInfo: { hasStaticImage: boolean; headerType: string };
}
