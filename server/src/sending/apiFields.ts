/**
 * A template as the public API and the sends to an audience take it: the template by name (an
 * unknown one answers 400, as the API's documentation lists), its variables' values read from
 * named fields, and the header file it goes out with.
 */
import path from 'node:path';
import { templateApiFields } from '@shared/templates';
import { fillMessage, messages } from '@shared/messages';
import { parameterProblem, parameterProblemText, parameterRule } from '@shared/parameterLimits';
import { AppError, BadRequestError, ValidationError } from '../errors';
import type { Template, User } from '../models';
import type { TemplateService } from '../templates/service';
import { templateVariableDefinitions } from '../templates/service';
import type { AcceptCampaignInput } from './campaignAcceptance';

/**
 * The public API's template: unknown answers 400 as its documentation says (spec 002 §8 lists
 * 200, 400, 401 and 429 only), where the web screens keep 404.
 */
export async function findApiTemplate(templates: Pick<TemplateService, 'findUsable'>, user: User, name: string, language: string | undefined): Promise<Template> {
  try {
    return await templates.findUsable(user.id, name, language);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw BadRequestError(error.code, error.code === 'template_not_usable' ? error.message : messages.templates.notFound, 'templatename');
    throw error;
  }
}

/**
 * Values of the public API's fields by template variable, keyed by component: the
 * body's from `var1, var2...` (or a named variable's own name), the header's from
 * `header_var1...`, each URL button's from `button_{index}_url`. The body's {{1}} and a
 * button's {{1}} are different values. The template's fields and rule are worked out once, for a
 * batch's every entry.
 */
export function apiValueReader(template: Template): (fields: Record<string, unknown>) => Record<string, string> {
  const apiFields = templateApiFields(templateVariableDefinitions(template));
  const rule = parameterRule(template.components);
  return (fields) => {
    const values: Record<string, string> = {};
    for (const { variable, field: name } of apiFields) {
      const value = fields[name] ?? (variable.component === 'body' ? fields[variable.name] : undefined);
      if (value === undefined || value === null || !String(value).trim()) throw ValidationError(name, fillMessage(messages.sending.variableMissing, { name: variable.label.replace(/^.*\{\{|\}\}$/g, '') }));
      values[variable.key] = String(value);
    }
    // A value WhatsApp refuses is refused here, before anything is charged.
    const problem = parameterProblem(rule, values);
    if (problem) throw ValidationError(apiFields.find(({ variable }) => variable.key === problem.key)?.field ?? 'templatename', parameterProblemText(problem));
    return values;
  };
}

/**
 * The header file a template sends when the sender gives none: its own stored sample. An image
 * header without one cannot be sent (the provider refuses a media header without its file).
 */
export function storedHeaderMedia(template: Template): AcceptCampaignInput['headerMedia'] {
  const format = template.components.find((c) => c.type === 'HEADER')?.format;
  if (!format || format === 'TEXT') return null;
  const type = format.toLowerCase() as 'image' | 'video' | 'document';
  if (template.headerMediaPath) return { type, path: template.headerMediaPath.split(path.sep).join('/'), name: template.headerMediaName };
  if (type === 'image') throw ValidationError('headerImage', messages.sending.imageRequired);
  return null;
}

/**
 * A media header through the API goes out with the template's stored file; without one the
 * call is refused (the provider would refuse a media header without its file).
 */
export async function apiHeaderMedia(template: Template): Promise<AcceptCampaignInput['headerMedia']> {
  const format = template.components.find((c) => c.type === 'HEADER')?.format;
  if (format && format !== 'TEXT' && !template.headerMediaPath) {
    throw BadRequestError('header_media_missing', fillMessage(messages.publicApi.headerMediaMissing, { type: format.toLowerCase() }), 'templatename');
  }
  return storedHeaderMedia(template);
}
