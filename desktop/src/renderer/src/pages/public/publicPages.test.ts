import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { TPublicConfig } from '@shared/types';
import { FALLBACK_PUBLIC_CONFIG, PublicConfigContext } from '../../context/publicConfig';
import { ContactPage } from './ContactPage';
import { DocsPage } from './DocsPage';
import { LandingPage } from './LandingPage';
import { PrivacyPage } from './PrivacyPage';
import { RefundPolicyPage } from './RefundPolicyPage';
import { TermsPage } from './TermsPage';
import { buildPrivacySections } from './content/privacy';
import { buildRefundSections } from './content/refund';
import { buildTermsFaq } from './content/terms';

const config: TPublicConfig = {
  ...FALLBACK_PUBLIC_CONFIG,
  brandName: 'Acme Notify',
  support: { phone: '+91 22 1234 5678', email: 'help@acme.example', address: '1 Market Road, Pune' },
};

function render(page: ComponentType, path: string): string {
  return renderToString(
    createElement(
      PublicConfigContext.Provider,
      { value: config },
      createElement(MemoryRouter, { initialEntries: [path] }, createElement(page)),
    ),
  );
}

const pages: [string, ComponentType, string][] = [
  ['LandingPage', LandingPage, '/'],
  ['DocsPage', DocsPage, '/docs'],
  ['ContactPage', ContactPage, '/contact'],
  ['PrivacyPage', PrivacyPage, '/privacy'],
  ['RefundPolicyPage', RefundPolicyPage, '/refund-policy'],
  ['TermsPage', TermsPage, '/terms'],
];

describe('public pages', () => {
  it.each(pages)('%s names the configured brand and never the default one', (_name, page, path) => {
    const html = render(page, path);
    expect(html).toContain('Acme Notify');
    expect(html).not.toMatch(/sandesh/i);
  });

  it('says on the landing page that the reports call accepts an API key, as the server does', () => {
    const html = render(LandingPage, '/');
    const reportsLine = /\/api\/whatsapp\/reports[^<]*<\/[^>]+>(?:\s*<[^>]+>)*([^<]*)/.exec(html)?.[1] ?? '';
    expect(reportsLine).toMatch(/API key/);
    expect(html).not.toMatch(/not with an API key/i);
  });

  it('shows the configured contact details as links on the contact page', () => {
    const html = render(ContactPage, '/contact');
    expect(html).toContain('href="mailto:help@acme.example"');
    expect(html).toContain('href="tel:+912212345678"');
    expect(html).toContain('1 Market Road, Pune');
    expect(html).toContain('href="/signup"');
  });

  it('lists the eleven refund policy sections in the specified order', () => {
    const html = render(RefundPolicyPage, '/refund-policy');
    const titles = [
      'Summary',
      'What you can cancel',
      'Credits',
      'When we do consider refunds',
      'What&#x27;s never refundable',
      'How to request a refund or dispute a bill',
      'Chargebacks',
      'Trial accounts &amp; closures',
      'Country-specific rights',
      'Changes to this policy',
      'Admin checklist',
    ];
    const positions = titles.map((title) => html.indexOf(`<span>${title}</span>`));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(html).toContain('Last updated: 12 Aug 2025');
  });

  it('states the same 7-day refund window in the terms FAQ as in the refund policy', () => {
    const html = render(TermsPage, '/terms');
    expect(html).toContain('Last updated: 15 January 2025');
    expect(html).toContain('What is the refund and cancellation policy?');

    const context = { brandName: config.brandName, support: config.support };
    const termsRefund = JSON.stringify(buildTermsFaq(context).find((item) => item.id === 'refund-and-cancellation'));
    const policySummary = JSON.stringify(buildRefundSections(context).find((item) => item.id === 'summary'));
    expect(termsRefund).toContain('within 7 days of purchase');
    expect(policySummary).toContain('within 7 days of buying it');
    expect(termsRefund).not.toContain('within 30 days of purchase');
  });

  it('has fourteen collapsible privacy sections, each in the jump list', () => {
    const html = render(PrivacyPage, '/privacy');
    const sections = buildPrivacySections({ brandName: config.brandName, support: config.support });
    expect(html).toContain('Last updated: 12 Aug 2025');
    expect(sections).toHaveLength(14);
    for (const section of sections) {
      expect(html).toContain(`href="#${section.id}"`);
      expect(html).toContain(`id="${section.id}"`);
    }
    expect(html).toContain('Jurisdictional addendum');
    expect(html).toContain('Product notes');
  });

  it('derives the privacy, DPO and grievance mailboxes from the support domain', () => {
    const sections = buildPrivacySections({ brandName: config.brandName, support: config.support });
    const contact = JSON.stringify(sections.find((section) => section.id === 'contact'));
    expect(contact).toContain('mailto:privacy@acme.example');
    expect(contact).toContain('mailto:dpo@acme.example');
    expect(contact).toContain('mailto:grievance@acme.example');
  });
});
