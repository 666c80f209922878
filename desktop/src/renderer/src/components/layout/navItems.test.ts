import { describe, expect, it } from 'vitest';
import { navFor } from './navItems';

describe('navFor', () => {
  it('gives users the user screens in the spec order, Replies, Contacts, the suppression list and Team after the reports', () => {
    expect(navFor('user', 'sidebar').map((item) => item.to)).toEqual([
      '/user/dashboard',
      '/user/whatsapp-bulk',
      '/user/api-management',
      '/user/customize-message',
      '/user/templates',
      '/user/manage-reports',
      '/user/replies',
      '/user/contacts',
      '/user/suppression-list',
      '/user/team',
      '/user/profile',
    ]);
    expect(navFor('user', 'drawer')).toEqual(navFor('user', 'sidebar'));
  });

  it('narrows a member\'s menu to their role in the account', () => {
    expect(navFor('user', 'sidebar', 'analyst').map((item) => item.to)).toEqual(['/user/dashboard', '/user/manage-reports', '/user/profile']);
    expect(navFor('user', 'sidebar', 'agent').map((item) => item.to)).toEqual(['/user/dashboard', '/user/replies', '/user/contacts', '/user/suppression-list', '/user/profile']);
    expect(navFor('user', 'sidebar', 'owner')).toEqual(navFor('user', 'sidebar'));
  });

  it('leaves Pricing out of the admin drawer only', () => {
    expect(navFor('admin', 'sidebar').map((item) => item.to)).toContain('/admin/pricing');
    expect(navFor('admin', 'drawer').map((item) => item.to)).toEqual([
      '/admin/dashboard',
      '/admin/users',
      '/admin/templates',
      '/admin/logs',
      '/admin/webhook-events',
      '/admin/reconciliation',
      '/admin/invoices',
      '/admin/profile',
    ]);
  });
});
