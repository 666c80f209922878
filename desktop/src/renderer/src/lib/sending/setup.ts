/**
 * What both send screens (spec 002 "Quick Send", "Customize Message", §4, §9) share while a send
 * is set up, without React: their timings, the setup progress, the message a template makes, the
 * price, the header image and the texts of list failures. The screen-specific rules are in
 * `quickSend.ts` and `customize.ts`; the campaign once sent in `campaign.ts`.
 */
import { CREDIT_UNITS_PER_RUPEE, PRICE_DEFAULTS, SENDING } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { priceToUnits, PRICE_PATTERN, type PriceCategory, type TPriceSet } from '@shared/pricing';
import { componentValues, renderTemplateText, TEMPLATE_CATEGORY_LABELS, type TemplateCategory } from '@shared/templates';
import type { TTemplate, TTemplateComponent, TTemplateDetails } from '@shared/types';

const s = messages.sending;

/** Timings and sizes of the send screens (spec 002 §9, and the product's own where it is silent). */
export const SEND_SCREEN = {
  /** The quick send success dialog appears this long after confirmation (spec: about 1 second). */
  successDialogDelayMs: 1_000,
  /** How often an accepted campaign's progress is re-read while its dialog is open. */
  campaignPollMs: 1_500,
  /**
   * The same while the tab's event stream is up: its `campaign_progress` events bring the counts,
   * and this slow read only covers a campaign moving on another server instance between heartbeats.
   */
  campaignStreamPollMs: 10_000,
  /** 'Generate Preview' and the data preview show this many messages (spec: first 3 rows). */
  previewRows: 3,
  /** Quick Send's campaign preview lists this many recipients. */
  campaignPreviewRecipients: 5,
  /** The cost preview is sent at most this many recipients (spec §9); the count goes separately. */
  costPreviewRecipients: 100,
  /** Spreadsheet rows shown in the data table; the rest are counted, never rendered. */
  dataTableRows: 10,
  /** Copy-confirmation feedback (spec §9: 2 seconds). */
  copyFeedbackMs: 2_000,
  /** Uploads of up to 10 MB and the parse behind them outlast the client's 30 s default. */
  uploadTimeoutMs: 180_000,
  /** A bulk send accepts up to hundreds of thousands of rows in one transaction. */
  sendTimeoutMs: 300_000,
} as const;

/** Bytes in a megabyte, for the file limits of the send screens. */
export const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Setup progress

export type StepState = 'pending' | 'current' | 'completed';

export interface SetupCondition {
  key: string;
  label: string;
  done: boolean;
}

export interface SetupStep extends SetupCondition {
  state: StepState;
}

export interface SetupProgress {
  steps: SetupStep[];
  /** Whole percent of conditions met (spec §4: the share of four conditions). */
  percent: number;
  completed: number;
}

/** Completed steps are done; the first step not done is current; the rest are pending. */
export function setupProgress(conditions: readonly SetupCondition[]): SetupProgress {
  const firstOpen = conditions.findIndex((condition) => !condition.done);
  const steps = conditions.map((condition, index): SetupStep => ({
    ...condition,
    state: condition.done ? 'completed' : index === firstOpen ? 'current' : 'pending',
  }));
  const completed = conditions.filter((condition) => condition.done).length;
  return { steps, completed, percent: conditions.length === 0 ? 100 : Math.round((completed / conditions.length) * 100) };
}

// ---------------------------------------------------------------------------------------------
// Templates

const CATEGORY_SUFFIX = /[\s_-]*(UTILITY|MARKETING|AUTHENTICATION)$/i;

/** "order_update_UTILITY" -> "order update": the category suffix and underscores go (spec §2). */
export function templateDisplayName(name: string): string {
  const shown = name.replace(CATEGORY_SUFFIX, '').replace(/_+/g, ' ').replace(/\s+/g, ' ').trim();
  return shown || name.replace(/_+/g, ' ').trim() || name;
}

/** 'Marketing' for MARKETING (or marketing); an unknown category as given. */
export function templateCategoryLabel(category: string): string {
  return TEMPLATE_CATEGORY_LABELS[category.toUpperCase() as TemplateCategory] ?? category;
}

export type SendVariable = TTemplateDetails['variables'][number];

/** Only the values typed so far: an empty one keeps its {{n}} visible in previews. */
function filledValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== '').map(([key, value]) => [key, value.trim()]));
}

function componentText(components: readonly TTemplateComponent[] | undefined, type: TTemplateComponent['type']): string | null {
  const found = Array.isArray(components) ? components.find((component) => component?.type === type) : undefined;
  if (!found?.text?.trim()) return null;
  if (type === 'HEADER' && found.format && found.format !== 'TEXT') return null;
  return found.text;
}

/** The message's text as a recipient reads it: text header, body and footer, filled with `values`. */
export function messageText(template: Pick<TTemplate, 'components'>, values: Record<string, string>): string {
  const filled = filledValues(values);
  // Each component is filled with its own values: the header's {{1}} is `header_1`, the body's `1`.
  return (['HEADER', 'BODY', 'FOOTER'] as const)
    .map((type) => {
      const text = componentText(template.components, type);
      return text === null ? null : renderTemplateText(text, type === 'HEADER' ? componentValues(filled, 'header') : filled);
    })
    .filter((part): part is string => part !== null)
    .join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// Endpoints

/** More than 50 recipients (or rows) take the bulk path (spec §9). */
export function isBulkSend(count: number): boolean {
  return count > SENDING.bulkThreshold;
}

// ---------------------------------------------------------------------------------------------
// Header image

export const HEADER_IMAGE_ACCEPT = 'image/jpeg,image/png,.jpg,.jpeg,.png';

/** The header image of a send: JPG or PNG, at most 5 MB (spec §5). */
export function headerImageError(file: { name: string; type: string; size: number }): string | null {
  const type = file.type.toLowerCase();
  const byType = type === 'image/jpeg' || type === 'image/jpg' || type === 'image/png';
  const byName = type === '' && /\.(jpe?g|png)$/i.test(file.name);
  if (!byType && !byName) return s.imageWrongType;
  if (file.size > SENDING.sendImageMaxMb * MB) return s.imageTooLarge;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Prices and cost

/** The prices a screen uses: the user's effective ones, else the defaults, else the spec's (§9). */
export const FALLBACK_PRICES: TPriceSet = { ...PRICE_DEFAULTS };

function categoryKey(category: string | null | undefined): PriceCategory {
  const key = (category ?? '').toLowerCase();
  return key === 'utility' || key === 'authentication' ? key : 'marketing';
}

/** Price of one message of `category` in rupees. */
export function priceFor(prices: TPriceSet | null | undefined, category: string | null | undefined): number {
  const key = categoryKey(category);
  const price = prices?.[key];
  const text = typeof price === 'string' && PRICE_PATTERN.test(price) ? price : FALLBACK_PRICES[key];
  return priceToUnits(text) / CREDIT_UNITS_PER_RUPEE;
}

/** Recipients x price, computed in credit units so that 3 x 0.15 is 0.45 and not 0.44999. */
export function estimateCost(count: number, pricePerMessage: number): number {
  const units = Math.round(pricePerMessage * CREDIT_UNITS_PER_RUPEE) * Math.max(0, count);
  return units / CREDIT_UNITS_PER_RUPEE;
}

/** Rupees with Indian grouping and 2 decimals (spec §9: cost shown to 2 decimals). */
export function formatCost(rupees: number): string {
  const text = `₹${formatIndianNumber(Math.abs(rupees), 2)}`;
  return rupees < 0 && text !== '₹0.00' ? `−${text}` : text;
}

/** A per-message price keeps its 4th decimal when it has one ("₹0.1234"), else shows 2. */
export function formatPrice(rupees: number): string {
  const units = Math.round(rupees * CREDIT_UNITS_PER_RUPEE);
  return `₹${formatIndianNumber(rupees, units % 100 === 0 ? 2 : 4)}`;
}

// ---------------------------------------------------------------------------------------------
// Failure texts

/** What a failed call left to read: its status (0 when no answer arrived) and the server's words. */
export interface FailedCall {
  status: number;
  serverMessage?: string | undefined;
}

/** Spec §8 "Loading lists", numbers: inline text, with the status when there was one. */
export function numbersLoadError(error: FailedCall, screen: 'quick' | 'customize'): string {
  if (error.status === 0) return screen === 'customize' ? s.connectionErrorCustomize : s.connectionError;
  return fillMessage(s.numbersLoadFailedStatus, { code: error.status });
}

/** Spec §8 "Loading lists", templates: a toast title and its description. */
export function templatesLoadError(error: FailedCall): { title: string; description?: string } {
  if (error.status === 0) return { title: s.templatesLoadNetwork };
  return { title: s.templatesLoadFailed, description: fillMessage(s.templatesLoadFailedStatus, { code: error.status }) };
}

export function languagesLoadError(error: FailedCall): string {
  return error.status === 0 ? s.languagesLoadNetwork : s.languagesLoadFailed;
}
