/**
 * Meta's refusals of a well-formed send whose values break WhatsApp's limits, as the simulator
 * answers them (so that a value the product let through shows up as Meta would report it):
 * - a text parameter longer than its place allows (60 in a header; 1,024 in a body beside other
 *   components, 32,768 when the body is alone; a URL button's link over 2,000): 132005
 *   "Template Hydrated Text Too Long" (Meta's error-code reference);
 * - a parameter holding a new line, a tab or another control character, or more than four spaces
 *   in a row: 132018, with the details Meta gives ("Param text cannot have new-line/tab characters
 *   or more than 4 consecutive spaces").
 * Both are HTTP 400 with `type` OAuthException, like every other synchronous send error.
 * Sources: docs/decisions/2026-12-07-send-requests-meta-accepts.md.
 */
import { PARAMETER_LIMITS } from '@shared/parameterLimits';
import type { TTemplateComponent } from '@shared/types';
import type { TComponent, TTemplateMessage } from './sendSchemas';

export const LIMIT_ERRORS = {
  tooLong: { http: 400, code: 132005, message: 'Template Hydrated Text Too Long', type: 'OAuthException' },
  format: { http: 400, code: 132018, message: 'There was an issue with the parameters in your template.', type: 'OAuthException' },
} as const;

export interface LimitRefusal {
  error: (typeof LIMIT_ERRORS)[keyof typeof LIMIT_ERRORS];
  details: string;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const SPACES = new RegExp(` {${PARAMETER_LIMITS.consecutiveSpaces + 1},}`);

const characters = (value: string) => [...value].length;

/** Each text the send fills into the template, with the most characters its place takes. */
function texts(components: readonly TTemplateComponent[], sent: readonly TComponent[]): { where: string; text: string; limit: number; link?: string }[] {
  const bodyOnly = components.every((c) => c.type === 'BODY');
  const buttons = components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
  const found: { where: string; text: string; limit: number; link?: string }[] = [];
  for (const component of sent) {
    if (component.type === 'button') {
      const url = buttons[Number(component.index)]?.url;
      for (const parameter of component.parameters) {
        if (parameter.type !== 'text') continue;
        // The value is appended to the approved link in place of its variable.
        const link = url ? url.replace(/\{\{\s*[A-Za-z0-9_]+\s*\}\}/, parameter.text) : parameter.text;
        found.push({ where: `button ${component.index}`, text: parameter.text, limit: PARAMETER_LIMITS.buttonUrl, link });
      }
      continue;
    }
    const limit = component.type === 'header' ? PARAMETER_LIMITS.headerText : bodyOnly ? PARAMETER_LIMITS.bodyOnlyText : PARAMETER_LIMITS.bodyText;
    (component.parameters ?? []).forEach((parameter, index) => {
      if (parameter.type === 'text') found.push({ where: `${component.type} parameter ${index + 1}`, text: parameter.text, limit });
    });
  }
  return found;
}

/** The first limit the send breaks, answered as Meta answers it, or null. */
export function parameterLimitRefusal(components: readonly TTemplateComponent[], body: TTemplateMessage): LimitRefusal | null {
  for (const { where, text, limit, link } of texts(components, body.template.components ?? [])) {
    if (CONTROL.test(text) || SPACES.test(text)) {
      return { error: LIMIT_ERRORS.format, details: `${where}: Param text cannot have new-line/tab characters or more than ${PARAMETER_LIMITS.consecutiveSpaces} consecutive spaces` };
    }
    const length = characters(link ?? text);
    if (length > limit) return { error: LIMIT_ERRORS.tooLong, details: `${where}: ${link ? 'the link' : 'the text'} is ${length} characters long; at most ${limit} are allowed` };
  }
  return null;
}
