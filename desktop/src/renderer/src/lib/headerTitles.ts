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

export function headerText(pathname: string, isAdmin: boolean): HeaderText {
  const segments = pathname.split('/').filter(Boolean);
  const section = sections.find((candidate) => segments.includes(candidate.segment));
  if (section) return { title: section.title, subtitle: section.subtitle };
  return { title: 'Dashboard', subtitle: isAdmin ? l.subtitleAdminDefault : l.subtitleUserDefault };
}
