import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shared/messages';
import type { TTemplate, TTemplateDetails, TTemplateListResponse } from '@shared/types';
import { TestClient } from '../../server/test/client';
import { signedInClient, waitForTemplateStatus } from '../../server/test/factories';
import { form, mp4File, pdfFile, pngFile } from '../../server/test/media';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

const t = messages.templates;

describe.skipIf(postgresUnavailable)('templates API', () => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ({ client: admin } = await signedInClient(server, { role: 'admin' }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const marketing = (overrides: Record<string, unknown> = {}) => ({
    name: 'diwali_offer',
    category: 'MARKETING',
    language: 'en_US',
    headerType: 'text',
    headerText: 'Hello {{1}}',
    bodyText: 'Your order {{2}} ships on {{3}}. Use {{code}}.',
    footerText: 'Reply STOP to opt out',
    buttons: [
      { type: 'URL', text: 'Track', url: 'https://shop.example.in/t/{{4}}' },
      { type: 'QUICK_REPLY', text: 'Stop' },
    ],
    variableExamples: { '1': 'Asha', '2': 'A-1', '3': 'Monday' },
    submit_to_whatsapp: false,
    ...overrides,
  });

  async function create(client: TestClient, overrides: Record<string, unknown> = {}) {
    const response = await client.post<{ data: TTemplate }>('/api/templates', marketing(overrides));
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data;
  }

  describe('creating', () => {
    it('saves a draft in the Cloud API shape with ordered variables and default examples', async () => {
      const { client } = await signedInClient(server);
      const response = await client.post<{ message: string; data: TTemplate }>('/api/templates', marketing());
      expect(response.status).toBe(201);
      expect(response.body.message).toBe(t.savedDraft);
      const template = response.body.data;
      expect(template).toMatchObject({ name: 'diwali_offer', category: 'MARKETING', language: 'en_US', status: 'DRAFT', headerType: 'text', rejectionReason: null });
      expect(template.components).toEqual([
        { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
        { type: 'BODY', text: 'Your order {{2}} ships on {{3}}. Use {{code}}.' },
        { type: 'FOOTER', text: 'Reply STOP to opt out' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example.in/t/{{4}}' }, { type: 'QUICK_REPLY', text: 'Stop' }] },
      ]);
      // Keyed by component: the header's {{1}} is header_1, the URL button's {{4}} is button_0_url.
      expect(template.variables).toEqual(['header_1', '2', '3', 'code', 'button_0_url']);
      expect(template.variableExamples).toMatchObject({ header_1: 'Asha', '2': 'A-1', '3': 'Monday', button_0_url: '₹1,499', code: 'sample code' });
    });

    it('creates and submits in one step (multipart, as the builder sends it)', async () => {
      const { client } = await signedInClient(server);
      const fields = marketing({ submit_to_whatsapp: true });
      const response = await client.post<{ message: string; data: TTemplate }>(
        '/api/templates',
        form({ ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])), submit_to_whatsapp: 'true' }),
      );
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ message: t.submitted, data: { status: 'PENDING' } });
    });

    it.each([
      [{ name: 'Bad Name' }, 'name', t.nameInvalid],
      [{ name: '' }, 'name', t.nameInvalid],
      [{ name: 'a'.repeat(61) }, 'name', t.nameInvalid],
      [{ bodyText: '   ' }, 'bodyText', t.bodyRequired],
      [{ headerText: 'h'.repeat(61) }, 'headerText', t.headerTextTooLong],
      [{ footerText: 'f'.repeat(61) }, 'footerText', t.footerTooLong],
      [{ buttons: Array.from({ length: 11 }, () => ({ type: 'QUICK_REPLY', text: 'ok' })) }, 'buttons', t.tooManyButtons],
      [{ buttons: [{ type: 'QUICK_REPLY', text: 'ok' }, { type: 'QUICK_REPLY', text: ' ' }] }, 'buttons.1', 'Button 2 must have text'],
      [{ buttons: [{ type: 'QUICK_REPLY', text: 'x'.repeat(26) }] }, 'buttons.0', 'Button 1 text must be at most 25 characters'],
      [{ buttons: [{ type: 'URL', text: 'Go', url: 'ftp://x' }] }, 'buttons.0', 'Invalid URL format in button 1'],
      [{ buttons: [{ type: 'PHONE_NUMBER', text: 'Call', phone_number: 'call me' }] }, 'buttons.0', 'Invalid phone number format in button 1'],
      [{ language: 'xx_XX' }, 'language', t.languageInvalid],
      [{ category: 'SPAM' }, 'category', t.categoryInvalid],
      [{ category: 'AUTHENTICATION' }, 'category', t.authenticationEndpoint],
      [{ headerType: 'image', headerText: '' }, 'headerMedia', t.headerMediaRequired],
      [{ headerType: 'text', headerText: '  ' }, 'headerText', t.headerTextRequired],
      [{ buttons: [{ type: 'CALL_ME_MAYBE', text: 'Hi' }] }, 'buttons.0', 'Button 1 has an unknown type'],
    ])('refuses %j with the spec message', async (overrides, field, message) => {
      const { client } = await signedInClient(server);
      const response = await client.post('/api/templates', marketing(overrides));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: message, field });
    });

    it('keeps names unique per user and language, not across users or languages', async () => {
      const { client } = await signedInClient(server);
      await create(client, { name: 'welcome' });
      const again = await client.post('/api/templates', marketing({ name: 'welcome' }));
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: t.nameTaken, field: 'name' });
      await create(client, { name: 'welcome', language: 'hi_IN' });
      const { client: other } = await signedInClient(server);
      await create(other, { name: 'welcome' });
    });

    it('always submits an authentication template, built from the OTP options', async () => {
      const { client } = await signedInClient(server);
      const response = await client.post<{ data: TTemplate }>('/api/templates/authentication', {
        name: 'login_code',
        language: 'en_US',
        otp_type: 'COPY_CODE',
        otp_button_text: 'Copy code',
        code_expiration_minutes: 5,
        add_security_recommendation: true,
        allow_category_change: false,
      });
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({ category: 'AUTHENTICATION', status: 'PENDING', variables: ['1'] });
      expect(response.body.data.components).toContainEqual({ type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] });
      expect(response.body.data.components).toContainEqual(expect.objectContaining({ type: 'FOOTER', code_expiration_minutes: 5 }));
    });

    it.each([
      [{ code_expiration_minutes: 0 }, t.codeExpiryInvalid],
      [{ code_expiration_minutes: 91 }, t.codeExpiryInvalid],
      [{ otp_type: 'SMS' }, t.otpTypeInvalid],
      [{ otp_button_text: 'x'.repeat(26) }, t.otpButtonTextTooLong],
      [{ name: 'Bad!' }, t.nameInvalid],
    ])('refuses an authentication template with %j', async (overrides, message) => {
      const { client } = await signedInClient(server);
      const response = await client.post('/api/templates/authentication', { name: 'otp', language: 'en_US', ...overrides });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: message });
    });
  });

  describe('header media', () => {
    const mediaFields = (headerType: string) => ({
      name: `media_${headerType}_${Math.random().toString(36).slice(2, 8)}`,
      category: 'UTILITY',
      language: 'en_US',
      headerType,
      bodyText: 'Your invoice is attached',
      submit_to_whatsapp: 'false',
    });

    it('stores a real image, serves it to its owner and admins only', async () => {
      const { client } = await signedInClient(server);
      const response = await client.post<{ data: TTemplate }>('/api/templates', form(mediaFields('image'), { name: 'banner.png', content: pngFile(), type: 'image/png' }));
      expect(response.status).toBe(201);
      const template = response.body.data;
      expect(template).toMatchObject({ headerType: 'image', headerMediaName: 'banner.png', components: [{ type: 'HEADER', format: 'IMAGE' }, expect.anything()] });
      const own = await fetch(`${server.url}${template.headerMediaUrl}`, { headers: { Cookie: `sandesh_session=${client.cookie('sandesh_session')}` } });
      expect(own.status).toBe(200);
      expect(own.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await own.arrayBuffer()).equals(pngFile())).toBe(true);
      expect((await admin.get(template.headerMediaUrl!)).status).toBe(200);
      const { client: stranger } = await signedInClient(server);
      expect((await stranger.get(template.headerMediaUrl!)).status).toBe(404);
      expect((await new TestClient(server.url).get(template.headerMediaUrl!)).status).toBe(401);
    });

    it('accepts a PDF document and an MP4 video header', async () => {
      const { client } = await signedInClient(server);
      expect((await client.post('/api/templates', form(mediaFields('document'), { name: 'invoice.pdf', content: pdfFile() }))).status).toBe(201);
      expect((await client.post('/api/templates', form(mediaFields('video'), { name: 'clip.mp4', content: mp4File(6 * 1024 * 1024) }))).status).toBe(201);
    });

    it('refuses an image over 5 MB and a video over 16 MB', async () => {
      const { client } = await signedInClient(server);
      const image = await client.post('/api/templates', form(mediaFields('image'), { name: 'big.png', content: pngFile(5 * 1024 * 1024 + 1) }));
      expect(image.status).toBe(400);
      expect(image.body).toMatchObject({ error: 'File size must be less than 5MB', field: 'headerMedia' });
      const video = await client.post('/api/templates', form(mediaFields('video'), { name: 'big.mp4', content: mp4File(16 * 1024 * 1024 + 1) }));
      expect(video.status).toBe(400);
      expect(video.body).toMatchObject({ error: 'File size must be less than 16MB' });
    });

    it('judges a file by its content, not its name', async () => {
      const { client } = await signedInClient(server);
      const lying = await client.post('/api/templates', form(mediaFields('image'), { name: 'photo.png', content: Buffer.from('MZ this is not an image at all'), type: 'image/png' }));
      expect(lying.status).toBe(400);
      expect(lying.body).toMatchObject({ error: t.fileTypeInvalid, field: 'headerMedia' });
      const pdfAsImage = await client.post('/api/templates', form(mediaFields('image'), { name: 'photo.jpg', content: pdfFile(), type: 'image/jpeg' }));
      expect(pdfAsImage.status).toBe(400);
      expect(pdfAsImage.body).toMatchObject({ error: t.fileTypeMismatch });
    });
  });

  describe('owner isolation and listing', () => {
    it("answers 404 for another user's template on every call", async () => {
      const { client: owner } = await signedInClient(server);
      const { client: stranger } = await signedInClient(server);
      const template = await create(owner);
      expect((await stranger.get(`/api/templates/${template.id}`)).status).toBe(404);
      expect((await stranger.put(`/api/templates/${template.id}`, marketing())).status).toBe(404);
      expect((await stranger.post(`/api/templates/${template.id}/submit`)).status).toBe(404);
      expect((await stranger.delete(`/api/templates/${template.id}`)).status).toBe(404);
      expect((await owner.get(`/api/templates/${template.id}`)).status).toBe(200);
    });

    it('pages and filters by status and category', async () => {
      const { client } = await signedInClient(server);
      for (let i = 0; i < 22; i += 1) await create(client, { name: `bulk_${i}`, category: i % 2 ? 'UTILITY' : 'MARKETING', submit_to_whatsapp: i < 3 });
      const first = await client.get<TTemplateListResponse>('/api/templates?page=1&limit=20');
      expect(first.body.data).toHaveLength(20);
      expect(first.body.pagination).toEqual({ currentPage: 1, totalPages: 2, totalTemplates: 22, hasPrev: false, hasNext: true });
      const second = await client.get<TTemplateListResponse>('/api/templates?page=2&limit=20');
      expect(second.body.pagination).toMatchObject({ currentPage: 2, hasPrev: true, hasNext: false });
      expect(second.body.data).toHaveLength(2);
      expect((await client.get<TTemplateListResponse>('/api/templates?status=PENDING')).body.pagination.totalTemplates).toBe(3);
      expect((await client.get<TTemplateListResponse>('/api/templates?category=UTILITY')).body.pagination.totalTemplates).toBe(11);
      expect((await client.get<TTemplateListResponse>('/api/templates?status=all&category=all')).body.pagination.totalTemplates).toBe(22);
    });
  });

  describe('status transitions', () => {
    it('edits a draft, submits it, and refuses edits and submits while pending', async () => {
      const { client } = await signedInClient(server);
      const draft = await create(client);
      const edited = await client.put<{ data: TTemplate }>(`/api/templates/${draft.id}`, marketing({ bodyText: 'New body {{1}}', headerType: 'none', headerText: '' }));
      expect(edited.status).toBe(200);
      expect(edited.body.data).toMatchObject({ status: 'DRAFT', headerType: 'none', variables: ['1', 'button_0_url'] });
      const submitted = await client.post<{ data: TTemplate }>(`/api/templates/${draft.id}/submit`);
      expect(submitted.body).toMatchObject({ message: t.submitted, data: { status: 'PENDING' } });
      const editPending = await client.put(`/api/templates/${draft.id}`, marketing());
      expect(editPending.status).toBe(409);
      expect(editPending.body).toMatchObject({ error: t.notEditable });
      const submitAgain = await client.post(`/api/templates/${draft.id}/submit`);
      expect(submitAgain.status).toBe(409);
      expect(submitAgain.body).toMatchObject({ error: t.notSubmittable });
    });

    it('runs the review: reject with a reason, edit back to draft, resubmit, approve, then usable', async () => {
      const { client, user } = await signedInClient(server);
      const template = await create(client, { submit_to_whatsapp: true, name: 'review_me' });
      const noReason = await admin.put(`/api/admin/templates/${template.id}/status`, { status: 'REJECTED' });
      expect(noReason.status).toBe(400);
      expect(noReason.body).toMatchObject({ message: t.rejectionReasonRequired, error: t.rejectionReasonRequired });
      const rejected = await admin.put<{ data: TTemplate }>(`/api/admin/templates/${template.id}/status`, { status: 'REJECTED', reason: 'Promotional wording in a utility slot' });
      expect(rejected.body).toMatchObject({ message: t.rejected, data: { status: 'REJECTED', rejectionReason: 'Promotional wording in a utility slot' } });
      expect((await client.get<{ data: TTemplate }>(`/api/templates/${template.id}`)).body.data.rejectionReason).toBe('Promotional wording in a utility slot');
      const backToDraft = await client.put<{ data: TTemplate }>(`/api/templates/${template.id}`, marketing({ name: 'review_me', bodyText: 'Fixed {{1}}' }));
      expect(backToDraft.body.data.status).toBe('DRAFT');
      await client.post(`/api/templates/${template.id}/submit`);
      // Meta's review (the simulator's) waits while the test looks at the template between the two halves.
      const releaseReview = server.services.simulator!.templates.holdReviews();
      const approved = await admin.put<{ data: TTemplate }>(`/api/admin/templates/${template.id}/status`, { status: 'APPROVED' });
      // Our half of the review is done: it waits for Meta's and cannot be reviewed again meanwhile.
      expect(approved.body).toMatchObject({ message: t.approvedSentToMeta, data: { status: 'PENDING', inMetaReview: true, rejectionReason: null } });
      const again = await admin.put(`/api/admin/templates/${template.id}/status`, { status: 'REJECTED', reason: 'changed my mind' });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ message: t.notPending });
      releaseReview();
      await waitForTemplateStatus(server, template.id, 'APPROVED');

      const usable = await client.get<{ data: TTemplate[] }>('/api/whatsapp/templates?language=en_US&exclude_auth=true');
      expect(usable.body.data.map((x) => x.name)).toContain('review_me');
      const audit = await server.db('audit_log').whereIn('action', ['template.approve', 'template.reject']).where({ targetId: String(template.id) });
      expect(audit).toHaveLength(2);

      const details = await client.post<{ data: TTemplateDetails }>('/api/whatsapp/template-details', { template_name: 'review_me', language: 'en_US' });
      expect(details.body.data).toMatchObject({ hasVariables: true, hasButtons: true, templateTypeInfo: { hasStaticImage: false } });
      // The header's {{1}}, the body's {{1}} and the button's {{4}} are three values.
      expect(details.body.data.variables.map((v) => v.placeholder)).toEqual(['Header {{1}}', '{{1}}', 'Button 1 link {{4}}']);
      expect(details.body.data.preview).toContain('Fixed Asha');
      const info = await client.get(`/api/send/template-info/${user.username}/review_me`);
      expect(info.body).toMatchObject({ requirements: { has_header: true, header_type: 'TEXT', variable_count: 3, has_buttons: true, button_types: [{ type: 'URL', text: 'Track', index: 0 }, { type: 'QUICK_REPLY', text: 'Stop', index: 1 }] } });
      expect((info.body.requirements as { optional_params: { name: string }[] }).optional_params.map((p) => p.name)).toEqual(['header_var1', 'var1', 'button_0_url']);
    });

    it('keeps drafts, pending and rejected templates out of the usable list', async () => {
      const { client } = await signedInClient(server);
      await create(client, { name: 'still_draft' });
      await create(client, { name: 'still_pending', submit_to_whatsapp: true });
      const usable = await client.get<{ data: TTemplate[] }>('/api/whatsapp/templates');
      expect(usable.body.data).toEqual([]);
      expect((await client.post('/api/whatsapp/template-details', { template_name: 'still_pending' })).status).toBe(404);
    });

    it('lets only admins review, and only pending templates', async () => {
      const { client } = await signedInClient(server);
      const pending = await create(client, { submit_to_whatsapp: true, name: 'self_approve' });
      const selfApprove = await client.put(`/api/admin/templates/${pending.id}/status`, { status: 'APPROVED' });
      expect(selfApprove.status).toBe(403);
      expect(selfApprove.body).toMatchObject({ message: messages.auth.adminRequired });
      const draft = await create(client, { name: 'a_draft' });
      expect((await admin.put(`/api/admin/templates/${draft.id}/status`, { status: 'APPROVED' })).status).toBe(409);
      expect((await admin.put(`/api/admin/templates/${pending.id}/status`, { status: 'PAUSED' })).body).toMatchObject({ message: t.statusInvalid });
      expect((await admin.put('/api/admin/templates/999999/status', { status: 'APPROVED' })).status).toBe(404);
    });

    it('deletes a template and its header file', async () => {
      const { client } = await signedInClient(server);
      const created = await client.post<{ data: TTemplate }>(
        '/api/templates',
        form({ name: 'with_file', category: 'UTILITY', language: 'en_US', headerType: 'image', bodyText: 'x' }, { name: 'a.png', content: pngFile() }),
      );
      const row = (await server.db('templates').where({ id: created.body.data.id }).first()) as { headerMediaPath: string };
      const { existsSync } = await import('node:fs');
      const { join } = await import('node:path');
      expect(existsSync(join(server.dataDir, row.headerMediaPath))).toBe(true);
      const deleted = await client.delete(`/api/templates/${created.body.data.id}`);
      expect(deleted.body).toMatchObject({ success: true, message: t.deleted });
      expect(existsSync(join(server.dataDir, row.headerMediaPath))).toBe(false);
      expect((await client.get(`/api/templates/${created.body.data.id}`)).status).toBe(404);
    });
  });

  describe('admin view of a user', () => {
    it('lists a user templates with stats', async () => {
      const { client, user } = await signedInClient(server);
      const a = await create(client, { name: 'one', submit_to_whatsapp: true });
      const b = await create(client, { name: 'two', submit_to_whatsapp: true });
      await create(client, { name: 'three' });
      await admin.put(`/api/admin/templates/${a.id}/status`, { status: 'APPROVED' });
      await admin.put(`/api/admin/templates/${b.id}/status`, { status: 'REJECTED', reason: 'no' });
      await waitForTemplateStatus(server, a.id, 'APPROVED');
      const response = await admin.get<{ templates: TTemplate[]; stats: Record<string, number> }>(`/api/admin/users/${user.id}/templates`);
      expect(response.body.stats).toEqual({ total: 3, pending: 0, approved: 1, rejected: 1 });
      expect(response.body.templates.map((x) => x.name).sort()).toEqual(['one', 'three', 'two']);
      expect((await client.get(`/api/admin/users/${user.id}/templates`)).status).toBe(403);
      expect((await admin.get('/api/admin/users/999999/templates')).status).toBe(404);
    });
  });

  it("offers every language Meta accepts for templates, the spec's seven first, then the ten Indian ones", async () => {
    const { client } = await signedInClient(server);
    const response = await client.get<{ data: { code: string }[] }>('/api/whatsapp/languages');
    const codes = response.body.data.map((l) => l.code);
    expect(codes.slice(0, 17)).toEqual(['en_US', 'en_GB', 'es_ES', 'fr_FR', 'de_DE', 'pt_BR', 'hi_IN', 'hi', 'bn', 'gu', 'kn', 'ml', 'mr', 'pa', 'ta', 'te', 'ur']);
    expect(codes).toEqual(expect.arrayContaining(['en', 'ar', 'zh_CN', 'pt_PT', 'es_MX', 'rw_RW', 'zu']));
  });

  it('creates a template in an Indian language and refuses a code Meta does not know', async () => {
    const { client } = await signedInClient(server);
    expect((await create(client, { name: 'namaste_ta', language: 'ta' })).language).toBe('ta');
    const refused = await client.post<{ code: string; field: string }>('/api/templates', marketing({ name: 'namaste_xx', language: 'xx_XX' }));
    expect(refused.status).toBe(400);
  });
});
