/**
 * Templates: the vocabulary of spec 002 (statuses, categories, languages, header and button
 * types), name normalisation and variable extraction, shared by the server and the builder.
 */

export const TEMPLATE_STATUSES = [
  'DRAFT',
  'IN_REVIEW',
  'PENDING',
  'APPROVED',
  'ACTIVE',
  'REJECTED',
  'PAUSED',
  'DISABLED',
  'APPEAL_REQUESTED',
] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

/** Statuses a template can be sent in. */
export const USABLE_TEMPLATE_STATUSES: readonly TemplateStatus[] = ['APPROVED', 'ACTIVE'];
/** Statuses in which the owner may edit or submit. */
export const EDITABLE_TEMPLATE_STATUSES: readonly TemplateStatus[] = ['DRAFT', 'REJECTED'];

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export const TEMPLATE_CATEGORY_LABELS: Record<TemplateCategory, string> = {
  UTILITY: 'Utility (transactional)',
  MARKETING: 'Marketing (promotional)',
  AUTHENTICATION: 'Authentication (OTP codes)',
};

/**
 * Every language Meta accepts for templates, in the order the picker shows them: the spec's seven
 * first (spec 002 §3), then the ten Indian languages, then the rest alphabetically by name.
 * The spec's `fr_FR`, `de_DE` and `hi_IN` are not Meta's codes (Meta's are `fr`, `de`, `hi`);
 * see docs/decisions/2026-12-07-template-events-from-meta.md.
 */
export const TEMPLATE_LANGUAGES = [
  { code: 'en_US', name: 'English (US)' },
  { code: 'en_GB', name: 'English (UK)' },
  { code: 'es_ES', name: 'Spanish (Spain)' },
  { code: 'fr_FR', name: 'French (France)' },
  { code: 'de_DE', name: 'German (Germany)' },
  { code: 'pt_BR', name: 'Portuguese (Brazil)' },
  { code: 'hi_IN', name: 'Hindi (India)' },
  // The ten Indian languages.
  { code: 'hi', name: 'Hindi' },
  { code: 'bn', name: 'Bengali' },
  { code: 'gu', name: 'Gujarati' },
  { code: 'kn', name: 'Kannada' },
  { code: 'ml', name: 'Malayalam' },
  { code: 'mr', name: 'Marathi' },
  { code: 'pa', name: 'Punjabi' },
  { code: 'ta', name: 'Tamil' },
  { code: 'te', name: 'Telugu' },
  { code: 'ur', name: 'Urdu' },
  // The rest of Meta's list, alphabetically by name.
  { code: 'af', name: 'Afrikaans' },
  { code: 'sq', name: 'Albanian' },
  { code: 'ar', name: 'Arabic' },
  { code: 'az', name: 'Azerbaijani' },
  { code: 'bg', name: 'Bulgarian' },
  { code: 'ca', name: 'Catalan' },
  { code: 'zh_CN', name: 'Chinese (China)' },
  { code: 'zh_HK', name: 'Chinese (Hong Kong)' },
  { code: 'zh_TW', name: 'Chinese (Taiwan)' },
  { code: 'hr', name: 'Croatian' },
  { code: 'cs', name: 'Czech' },
  { code: 'da', name: 'Danish' },
  { code: 'nl', name: 'Dutch' },
  { code: 'en', name: 'English' },
  { code: 'et', name: 'Estonian' },
  { code: 'fil', name: 'Filipino' },
  { code: 'fi', name: 'Finnish' },
  { code: 'fr', name: 'French' },
  { code: 'ka', name: 'Georgian' },
  { code: 'de', name: 'German' },
  { code: 'el', name: 'Greek' },
  { code: 'ha', name: 'Hausa' },
  { code: 'he', name: 'Hebrew' },
  { code: 'hu', name: 'Hungarian' },
  { code: 'id', name: 'Indonesian' },
  { code: 'ga', name: 'Irish' },
  { code: 'it', name: 'Italian' },
  { code: 'ja', name: 'Japanese' },
  { code: 'kk', name: 'Kazakh' },
  { code: 'rw_RW', name: 'Kinyarwanda' },
  { code: 'ko', name: 'Korean' },
  { code: 'ky_KG', name: 'Kyrgyz (Kyrgyzstan)' },
  { code: 'lo', name: 'Lao' },
  { code: 'lv', name: 'Latvian' },
  { code: 'lt', name: 'Lithuanian' },
  { code: 'mk', name: 'Macedonian' },
  { code: 'ms', name: 'Malay' },
  { code: 'nb', name: 'Norwegian' },
  { code: 'fa', name: 'Persian' },
  { code: 'pl', name: 'Polish' },
  { code: 'pt_PT', name: 'Portuguese (Portugal)' },
  { code: 'ro', name: 'Romanian' },
  { code: 'ru', name: 'Russian' },
  { code: 'sr', name: 'Serbian' },
  { code: 'sk', name: 'Slovak' },
  { code: 'sl', name: 'Slovenian' },
  { code: 'es', name: 'Spanish' },
  { code: 'es_AR', name: 'Spanish (Argentina)' },
  { code: 'es_MX', name: 'Spanish (Mexico)' },
  { code: 'sw', name: 'Swahili' },
  { code: 'sv', name: 'Swedish' },
  { code: 'th', name: 'Thai' },
  { code: 'tr', name: 'Turkish' },
  { code: 'uk', name: 'Ukrainian' },
  { code: 'uz', name: 'Uzbek' },
  { code: 'vi', name: 'Vietnamese' },
  { code: 'zu', name: 'Zulu' },
] as const;
/** How many of TEMPLATE_LANGUAGES are the spec's, and how many the Indian languages after them. */
export const SPEC_TEMPLATE_LANGUAGE_COUNT = 7;
export const INDIAN_TEMPLATE_LANGUAGE_COUNT = 10;
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number]['code'];
export const TEMPLATE_LANGUAGE_CODES = TEMPLATE_LANGUAGES.map((l) => l.code) as [TemplateLanguage, ...TemplateLanguage[]];
export const DEFAULT_TEMPLATE_LANGUAGE: TemplateLanguage = 'en_US';

export const HEADER_TYPES = ['none', 'text', 'image', 'video', 'document'] as const;
export type HeaderType = (typeof HEADER_TYPES)[number];
export type MediaHeaderType = Exclude<HeaderType, 'none' | 'text'>;

/** Buttons a non-authentication template may carry, with their labels in the builder. */
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number] | 'OTP';
export const BUTTON_TYPE_LABELS: Record<ButtonType, string> = {
  QUICK_REPLY: 'Quick Reply',
  URL: 'Website',
  PHONE_NUMBER: 'Phone Call',
  OTP: 'Copy Code',
};

export const OTP_TYPES = ['COPY_CODE', 'ONE_TAP'] as const;
export type OtpType = (typeof OTP_TYPES)[number];

/** Media limits per header type, in bytes (spec 002 §5). */
export const HEADER_MEDIA_MAX_BYTES: Record<MediaHeaderType, number> = {
  image: 5 * 1024 * 1024,
  document: 5 * 1024 * 1024,
  video: 16 * 1024 * 1024,
};

/** Default example values for variables {{1}} to {{10}} (the builder's Add Variable). */
export const SAMPLE_VARIABLE_EXAMPLES: readonly string[] = [
  'Rahul',
  'ORD-10234',
  '25 Dec 2025',
  '₹1,499',
  'Mumbai',
  '10:30 AM',
  'Sandesh Store',
  'SAVE20',
  '3',
  'https://example.com/track',
];

export function sampleExampleFor(variable: string): string {
  const index = Number(variable) - 1;
  return Number.isInteger(index) && index >= 0 && index < SAMPLE_VARIABLE_EXAMPLES.length
    ? (SAMPLE_VARIABLE_EXAMPLES[index] as string)
    : `sample ${variable}`;
}

/** As typed in the name field: lower-cased, anything outside a-z, 0-9 and _ becomes _. */
export function normaliseTemplateName(input: string): string {
  return input.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

export const TEMPLATE_NAME_PATTERN = /^[a-z0-9_]{1,60}$/;

const VARIABLE_PATTERN = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

export interface VariableSources {
  headerText?: string | null;
  bodyText?: string | null;
  buttons?: readonly { text?: string | null; url?: string | null }[] | null;
}

/**
 * Every double-brace variable in header text, body, button URLs and texts, once each: numeric
 * ones in numeric order, then named ones alphabetically (spec 002 §3).
 */
export function extractVariables(sources: VariableSources): string[] {
  const texts = [
    sources.headerText ?? '',
    sources.bodyText ?? '',
    ...(sources.buttons ?? []).flatMap((button) => [button.url ?? '', button.text ?? '']),
  ];
  const found = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(VARIABLE_PATTERN)) found.add(match[1] as string);
  const numeric = [...found].filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(a) - Number(b));
  const named = [...found].filter((v) => !/^\d+$/.test(v)).sort((a, b) => a.localeCompare(b));
  return [...numeric, ...named];
}

/**
 * Variables are keyed by the component they belong to, as WhatsApp numbers them: the
 * body's {{1}} and a URL button's {{1}} are different values.
 *
 * - body: the variable itself ("1", "name"): what every stored value of a body already uses;
 * - header text: `header_1` (the API's `header_var1`);
 * - a URL button: `button_{index}_url` (the API's field; WhatsApp allows one variable, at the end).
 */
export type VariableComponent = 'header' | 'body' | 'button';

export interface TemplateVariable {
  /** The key of its value in a values map. */
  key: string;
  component: VariableComponent;
  /** The name inside the braces. */
  name: string;
  /** The button's index, for a button variable. */
  buttonIndex?: number;
  /** How the screens name it: "{{1}}", "Header {{1}}", "Button 1 link {{1}}". */
  label: string;
}

/** How the screens name a variable from its key alone: "Header {{1}}", "Button 1 link", "{{1}}". */
export function variableKeyLabel(key: string): string {
  const header = /^header_(.+)$/.exec(key);
  if (header) return `Header {{${header[1]}}}`;
  const button = /^button_(\d+)_url$/.exec(key);
  if (button) return `Button ${Number(button[1]) + 1} link`;
  return `{{${key}}}`;
}

export function headerVariableKey(name: string): string {
  return `header_${name}`;
}

export function buttonVariableKey(buttonIndex: number): string {
  return `button_${buttonIndex}_url`;
}

function namesIn(text: string | null | undefined): string[] {
  return extractVariables({ bodyText: text ?? '' });
}

/** Every variable of a template, keyed by its component: header, then body, then each URL button. */
export function templateVariableList(sources: VariableSources): TemplateVariable[] {
  const list: TemplateVariable[] = [];
  for (const name of namesIn(sources.headerText)) list.push({ key: headerVariableKey(name), component: 'header', name, label: `Header {{${name}}}` });
  for (const name of namesIn(sources.bodyText)) list.push({ key: name, component: 'body', name, label: `{{${name}}}` });
  (sources.buttons ?? []).forEach((button, index) => {
    const name = namesIn(button.url)[0];
    if (name !== undefined) list.push({ key: buttonVariableKey(index), component: 'button', name, buttonIndex: index, label: `Button ${index + 1} link {{${name}}}` });
  });
  return list;
}

/**
 * The public API's field for each variable (spec 002 §3): the body's are `var1,
 * var2...` in order, the header's `header_var1...`, a URL button's `button_{index}_url`.
 */
export function templateApiFields(variables: readonly TemplateVariable[]): { variable: TemplateVariable; field: string }[] {
  let body = 0;
  let header = 0;
  return variables.map((variable) => ({
    variable,
    field: variable.component === 'header' ? `header_var${++header}` : variable.component === 'button' ? variable.key : `var${++body}`,
  }));
}

/**
 * The values one component's text is filled with, by the names inside its braces. Values stored
 * before variables were keyed by component (one shared namespace) are still read: a header or
 * button without its own key falls back to the shared name.
 */
export function componentValues(values: Record<string, string>, component: 'header' | 'body'): Record<string, string> {
  if (component === 'body') return values;
  const own: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (key.startsWith('header_')) own[key.slice('header_'.length)] = value;
  return { ...values, ...own };
}

/** A URL button's link filled with its own value (`button_{index}_url`), or the shared name's before keying. */
export function renderButtonUrl(url: string, values: Record<string, string>, buttonIndex: number): string {
  const own = values[buttonVariableKey(buttonIndex)];
  if (own === undefined) return renderTemplateText(url, values);
  return url.replace(VARIABLE_PATTERN, () => own);
}

/** The next numbered variable for Add Variable: one above the highest number used. */
export function nextVariableNumber(variables: readonly string[]): number {
  return variables.filter((v) => /^\d+$/.test(v)).reduce((max, v) => Math.max(max, Number(v)), 0) + 1;
}

/** Fills {{var}} tokens from a map; a missing value leaves the token as it is. */
export function renderTemplateText(text: string, values: Record<string, string>): string {
  return text.replace(VARIABLE_PATTERN, (whole, name: string) => values[name] ?? whole);
}

/** The status label the UI shows; anything unknown shows as Unknown (spec 002 §3). */
export function templateStatusLabel(status: string): string {
  const labels: Record<TemplateStatus, string> = {
    DRAFT: 'Draft',
    IN_REVIEW: 'In Review',
    PENDING: 'Pending',
    APPROVED: 'Approved',
    ACTIVE: 'Active',
    REJECTED: 'Rejected',
    PAUSED: 'Paused',
    DISABLED: 'Disabled',
    APPEAL_REQUESTED: 'Appeal Requested',
  };
  return (TEMPLATE_STATUSES as readonly string[]).includes(status) ? labels[status as TemplateStatus] : 'Unknown';
}
