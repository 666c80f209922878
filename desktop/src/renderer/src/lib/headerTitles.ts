import { messages } from '@shared/messages';

const l = messages.layout;

export interface HeaderText {
  title: string;
  subtitle: string;
}

/**
 * Spec 000 §2.6 names four header titles (Dashboard, Templates, WhatsApp Bulk Messaging, User
 * Management) keyed by the legacy paths /dashboard, /templates, /whatsapp-bulk and /users. The
 * live routes nest those under /user or /admin, so a path matches by its segments.
 */
const sections: ReadonlyArray<{ segment: string; title: string; subtitle: string }> = [
  { segment: 'dashboard', title: 'Dashboard', subtitle: l.subtitleDashboard },
  { segment: 'templates', title: 'Templates', subtitle: l.subtitleTemplates },
  { segment: 'whatsapp-bulk', title: 'WhatsApp Bulk Messaging', subtitle: l.subtitleWhatsappBulk },
  { segment: 'users', title: 'User Management', subtitle: l.subtitleUsers },
];

/** Admin screens that are not the user's own (spec 001): checked first under /admin. */
const adminSections: ReadonlyArray<{ segment: string; title: string; subtitle: string }> = [
  { segment: 'templates', title: 'User Templates', subtitle: l.subtitleAdminTemplates },
  { segment: 'logs', title: 'Log Management', subtitle: l.subtitleLogs },
  { segment: 'test-notifications', title: 'Notification Test Page', subtitle: l.subtitleTestNotifications },
];

export function headerText(pathname: string, isAdmin: boolean): HeaderText {
  const segments = pathname.split('/').filter(Boolean);
  // /admin/templates is the review queue across users (issue 18), not one user's templates.
  if (segments[0] === 'admin' && segments[1] === 'templates') return { title: 'Template Review', subtitle: l.subtitleTemplateQueue };
  const adminSection = segments[0] === 'admin' ? adminSections.find((candidate) => segments.includes(candidate.segment)) : undefined;
  if (adminSection) return { title: adminSection.title, subtitle: adminSection.subtitle };
  const section = sections.find((candidate) => segments.includes(candidate.segment));
  if (section) return { title: section.title, subtitle: section.subtitle };
  return { title: 'Dashboard', subtitle: isAdmin ? l.subtitleAdminDefault : l.subtitleUserDefault };
}
