/**
 * What WhatsApp takes as a template variable's value at send time, checked when a send is
 * accepted (and by every preview) rather than learnt from Meta after the message was charged.
 * One rule for the quick send, the personalised send's rows (server, web and desktop previews,
 * through `rowMessage` in ./sheetRows), scheduled sends and the public API.
 *
 * Meta's limits (sources in docs/decisions/2026-12-07-send-requests-meta-accepts.md):
 * - a text parameter: 60 characters in a header; in the body 1,024 when the message has other
 *   components, 32,768 when the body is its only one (Meta's send reference; the OpenAPI file's
 *   `TextParameter.maxLength` is the 32,768);
 * - a URL button's value is appended to the approved link, and a button's link is at most 2,000
 *   characters (Meta's template components reference): the link as filled is held to that;
 * - a parameter may not hold a new line, a tab or any other control character, nor more than four
 *   spaces in a row: Meta refuses such a send with error 132018 ("Param text cannot have
 *   new-line/tab characters or more than 4 consecutive spaces").
 */
import { fillMessage, messages } from './messages';
import { renderButtonUrl, templateVariableList, type TemplateVariable } from './templates';
import type { TTemplateComponent } from './types';

export const PARAMETER_LIMITS = {
  headerText: 60,
  bodyText: 1_024,
  bodyOnlyText: 32_768,
  buttonUrl: 2_000,
  consecutiveSpaces: 4,
} as const;

export type ParameterProblemReason = 'too_long' | 'url_too_long' | 'control_character' | 'spaces';

export interface ParameterProblem {
  /** The value's key (`1`, `name`, `header_1`, `button_0_url`). */
  key: string;
  /** How the screens name the variable ("{{1}}", "Header {{1}}", "Button 1 link {{1}}"). */
  label: string;
  reason: ParameterProblemReason;
  /** Characters in the value (or, for a link, in the link as filled). */
  length: number;
  limit: number;
}

/** A template's variables with the limit each is held to; built once per send, used for every row. */
export interface ParameterRule {
  checks: { variable: TemplateVariable; limit: number; url: string | null }[];
}

export function parameterRule(components: readonly TTemplateComponent[]): ParameterRule {
  const header = components.find((c) => c.type === 'HEADER' && (c.format === 'TEXT' || !c.format));
  const buttons = components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
  const bodyOnly = components.every((c) => c.type === 'BODY');
  const variables = templateVariableList({ headerText: header?.text, bodyText: components.find((c) => c.type === 'BODY')?.text, buttons });
  return {
    checks: variables.map((variable) => {
      if (variable.component === 'header') return { variable, limit: PARAMETER_LIMITS.headerText, url: null };
      if (variable.component === 'button') return { variable, limit: PARAMETER_LIMITS.buttonUrl, url: buttons[variable.buttonIndex ?? -1]?.url ?? '' };
      return { variable, limit: bodyOnly ? PARAMETER_LIMITS.bodyOnlyText : PARAMETER_LIMITS.bodyText, url: null };
    }),
  };
}

/** Characters as a person counts them (an emoji is one), not UTF-16 units. */
function characters(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

// C0 and C1 control characters (new line and tab among them) and DEL.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const SPACES = new RegExp(` {${PARAMETER_LIMITS.consecutiveSpaces + 1},}`);

/** What is wrong with one value for its place in the template, or null. */
export function valueProblem(check: ParameterRule['checks'][number], value: string, values: Record<string, string>): ParameterProblem | null {
  const { variable, limit } = check;
  const base = { key: variable.key, label: variable.label };
  if (CONTROL.test(value)) return { ...base, reason: 'control_character', length: characters(value), limit };
  if (SPACES.test(value)) return { ...base, reason: 'spaces', length: characters(value), limit };
  if (check.url !== null) {
    const link = renderButtonUrl(check.url, values, variable.buttonIndex ?? 0);
    // A link's length is at most its UTF-16 length: count characters only when that is over.
    if (link.length > limit && characters(link) > limit) return { ...base, reason: 'url_too_long', length: characters(link), limit };
    return null;
  }
  if (value.length > limit && characters(value) > limit) return { ...base, reason: 'too_long', length: characters(value), limit };
  return null;
}

/** The first value WhatsApp would refuse, in the template's variable order, or null when every one fits. */
export function parameterProblem(rule: ParameterRule, values: Record<string, string>): ParameterProblem | null {
  for (const check of rule.checks) {
    const value = values[check.variable.key];
    if (value === undefined) continue;
    const problem = valueProblem(check, value, values);
    if (problem) return problem;
  }
  return null;
}

/** Why, in the catalogue's words: "{{2}} is 1,500 characters long; WhatsApp takes at most 1,024 here". */
export function parameterProblemText(problem: ParameterProblem): string {
  return fillMessage(messages.sending.parameterRefused[problem.reason], {
    label: problem.label,
    length: problem.length.toLocaleString('en-IN'),
    limit: problem.limit.toLocaleString('en-IN'),
    spaces: PARAMETER_LIMITS.consecutiveSpaces,
  });
}
