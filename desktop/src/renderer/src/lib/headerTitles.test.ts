import { describe, expect, it } from 'vitest';
import { headerText } from './headerTitles';

describe('headerText', () => {
  it('titles the dashboards of both roles and the legacy /dashboard', () => {
    for (const path of ['/user/dashboard', '/admin/dashboard', '/dashboard']) {
      expect(headerText(path, false)).toEqual({
        title: 'Dashboard',
        subtitle: "Here's what's happening with your WhatsApp campaigns today.",
      });
    }
  });

  it('titles templates, bulk messaging and user management with their subtitles', () => {
    expect(headerText('/user/templates/create', false)).toEqual({
      title: 'Templates',
      subtitle: 'Create, edit, and manage your message templates.',
    });
    expect(headerText('/user/whatsapp-bulk', false)).toEqual({
      title: 'WhatsApp Bulk Messaging',
      subtitle: 'Send bulk messages to multiple recipients.',
    });
    expect(headerText('/admin/users', true)).toEqual({
      title: 'User Management',
      subtitle: 'Manage user accounts and permissions.',
    });
  });

  it('titles the admin\'s view of a user\'s templates as theirs, not with the user-side header', () => {
    expect(headerText('/admin/users/7/templates', true)).toEqual({ title: 'User Templates', subtitle: "Review, approve and reject this user's message templates." });
    expect(headerText('/admin/logs', true).title).toBe('Log Management');
  });

  it('titles the review queue across users apart from one user\'s templates', () => {
    expect(headerText('/admin/templates', true)).toEqual({ title: 'Template Review', subtitle: 'Templates of every user waiting for review.' });
  });

  it('titles every other screen after itself, not "Dashboard"', () => {
    expect(headerText('/user/wallet', false).title).toBe('Wallet');
    expect(headerText('/user/profile', false).title).toBe('Profile');
    expect(headerText('/profile', false).title).toBe('Profile');
    expect(headerText('/admin/profile', true).title).toBe('Profile');
    expect(headerText('/user/manage-reports', false).title).toBe('Reports');
    expect(headerText('/user/customize-message', false).title).toBe('Personalised Messages');
    expect(headerText('/user/api-management', false).title).toBe('API & Webhooks');
    expect(headerText('/admin/users/7/wallet', true).title).toBe('User Management');
    expect(headerText('/admin/users/7/settings', true).title).toBe('User Management');
    expect(headerText('/admin/settings', true).title).toBe('Settings');
    expect(headerText('/admin/pricing', true).title).toBe('Pricing');
  });

  it('does not mistake /user for /users', () => {
    expect(headerText('/user/profile', false).title).not.toBe('User Management');
  });

  it('falls back to Dashboard with a role-dependent subtitle', () => {
    expect(headerText('/admin', true)).toEqual({ title: 'Dashboard', subtitle: 'Admin Panel' });
    expect(headerText('/user', false)).toEqual({ title: 'Dashboard', subtitle: 'WhatsApp Business Platform' });
  });
});
