import { describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TTemplateComponent } from '@shared/types';
import { customizeProgress, allVariablesMapped } from './customize';
import { quickSendProgress } from './quickSend';
import {
  estimateCost,
  formatCost,
  formatPrice,
  headerImageError,
  isBulkSend,
  MB,
  messageText,
  numbersLoadError,
  priceFor,
  setupProgress,
  templateCategoryLabel,
  templateDisplayName,
  templatesLoadError,
} from './setup';

const s = messages.sending;

describe('setup progress', () => {
  it('marks done steps completed, the first open one current and the rest pending', () => {
    const progress = setupProgress([
      { key: 'a', label: 'A', done: true },
      { key: 'b', label: 'B', done: false },
      { key: 'c', label: 'C', done: true },
      { key: 'd', label: 'D', done: false },
    ]);
    expect(progress.steps.map((step) => step.state)).toEqual(['completed', 'current', 'completed', 'pending']);
    expect(progress.percent).toBe(50);
    expect(progress.completed).toBe(2);
  });

  it('counts the four quick send conditions: number, template, recipients and variables', () => {
    expect(quickSendProgress({ hasNumber: false, hasTemplate: false, recipientCount: 0, variablesComplete: true }).percent).toBe(0);
    expect(quickSendProgress({ hasNumber: true, hasTemplate: false, recipientCount: 0, variablesComplete: true }).percent).toBe(25);
    expect(quickSendProgress({ hasNumber: true, hasTemplate: true, recipientCount: 3, variablesComplete: false }).percent).toBe(75);
    const full = quickSendProgress({ hasNumber: true, hasTemplate: true, recipientCount: 3, variablesComplete: true });
    expect(full.percent).toBe(100);
    expect(full.steps.map((step) => step.label)).toEqual(['WhatsApp Number', 'Template', 'Recipients', 'Variables']);
  });

  it('needs a file and a recipient column for the customize data step, and treats no variables as mapped', () => {
    const base = { hasNumber: true, hasTemplate: true, hasFile: true, hasRecipientColumn: false, variablesMapped: true };
    expect(customizeProgress(base).percent).toBe(75);
    expect(customizeProgress({ ...base, hasRecipientColumn: true }).percent).toBe(100);
    expect(allVariablesMapped([], {})).toBe(true);
  });
});

describe('templates', () => {
  it('drops the category suffix and underscores from displayed names', () => {
    expect(templateDisplayName('order_update_UTILITY')).toBe('order update');
    expect(templateDisplayName('diwali_offer_marketing')).toBe('diwali offer');
    expect(templateDisplayName('login_code_AUTHENTICATION')).toBe('login code');
    expect(templateDisplayName('welcome__message')).toBe('welcome message');
    // A name that is only a category keeps something to show.
    expect(templateDisplayName('marketing')).toBe('marketing');
  });

  it('labels a category as the screens show it, an unknown one as given', () => {
    expect(templateCategoryLabel('MARKETING')).toBe('Marketing (promotional)');
    expect(templateCategoryLabel('utility')).toBe('Utility (transactional)');
    expect(templateCategoryLabel('OTHER')).toBe('OTHER');
  });

  it('renders the message text with what is filled and keeps unfilled tokens visible', () => {
    const template = {
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
        { type: 'BODY', text: 'Your order {{2}} ships to {{city}}.' },
        { type: 'FOOTER', text: 'Reply STOP to opt out' },
      ] satisfies TTemplateComponent[],
    };
    expect(messageText(template, { '1': 'Asha', '2': '', city: 'Pune' })).toBe(
      'Hello Asha\n\nYour order {{2}} ships to Pune.\n\nReply STOP to opt out',
    );
    const imageHeader = { components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Hi' }] satisfies TTemplateComponent[] };
    expect(messageText(imageHeader, {})).toBe('Hi');
  });

  it('takes the bulk path for more than 50', () => {
    expect(isBulkSend(50)).toBe(false);
    expect(isBulkSend(51)).toBe(true);
  });
});

describe('header image', () => {
  it('accepts JPG and PNG header images up to 5 MB', () => {
    expect(headerImageError({ name: 'a.png', type: 'image/png', size: 5 * MB })).toBeNull();
    expect(headerImageError({ name: 'a.jpg', type: 'image/jpeg', size: 10 })).toBeNull();
    expect(headerImageError({ name: 'a.JPEG', type: '', size: 10 })).toBeNull();
    expect(headerImageError({ name: 'a.gif', type: 'image/gif', size: 10 })).toBe(s.imageWrongType);
    expect(headerImageError({ name: 'a.png', type: 'image/png', size: 5 * MB + 1 })).toBe(s.imageTooLarge);
  });
});

describe('prices and cost', () => {
  it('prices by the template category, falling back to the spec defaults', () => {
    const prices = { marketing: '1.25', utility: '0.1234', authentication: '0.20', service: '0.00' };
    expect(priceFor(prices, 'MARKETING')).toBe(1.25);
    expect(priceFor(prices, 'utility')).toBe(0.1234);
    expect(priceFor(null, 'AUTHENTICATION')).toBe(0.15);
    expect(priceFor({ ...prices, marketing: 'oops' }, 'MARKETING')).toBe(0.8);
  });

  it('multiplies in credit units and shows 2 decimals with Indian grouping', () => {
    expect(estimateCost(3, 0.15)).toBe(0.45);
    expect(estimateCost(100000, 0.8)).toBe(80000);
    expect(formatCost(80000)).toBe('₹80,000.00');
    expect(formatCost(123456.5)).toBe('₹1,23,456.50');
    expect(formatCost(-0.05)).toBe('−₹0.05');
    expect(formatPrice(0.8)).toBe('₹0.80');
    expect(formatPrice(0.1234)).toBe('₹0.1234');
  });
});

describe('list failures', () => {
  it('words list failures as the spec does', () => {
    expect(numbersLoadError({ status: 500 }, 'quick')).toBe('Error loading WhatsApp numbers. Status: 500. Please try again.');
    expect(numbersLoadError({ status: 0 }, 'quick')).toBe(s.connectionError);
    expect(numbersLoadError({ status: 0 }, 'customize')).toBe(s.connectionErrorCustomize);
    expect(templatesLoadError({ status: 503 })).toEqual({ title: 'Error loading templates', description: 'Status: 503. Please try again.' });
    expect(templatesLoadError({ status: 0 })).toEqual({ title: s.templatesLoadNetwork });
  });
});
