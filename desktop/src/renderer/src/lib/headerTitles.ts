import { messages } from '@shared/messages';

const l = messages.layout;

export interface HeaderText {
  title: string;
  subtitle: string;
}

interface Section {
  /** Path segments that must all be present, e.g. ['users', 'templates'] for /admin/users/7/templates. */
  segments: readonly string[];
  title: string;
  subtitle: string;
}

/**
 * Spec 000 §2.6 names four header titles (Dashboard, Templates, WhatsApp Bulk Messaging, User
 * Management) keyed by the legacy paths /dashboard, /templates, /whatsapp-bulk and /users; every
 * other screen is titled after itself rather than falling back to "Dashboard". The
 * live routes nest the paths under /user or /admin, so a path matches by its segments, the more
 * specific entries first. A title never repeats the page's own heading word for word (one
 * heading of that name per screen).
 */
const sections: readonly Section[] = [
  { segments: ['dashboard'], title: 'Dashboard', subtitle: l.subtitleDashboard },
  { segments: ['templates'], title: 'Templates', subtitle: l.subtitleTemplates },
  { segments: ['whatsapp-bulk'], title: 'WhatsApp Bulk Messaging', subtitle: l.subtitleWhatsappBulk },
  // Before the screens below: an admin's screens of one user (/admin/users/7/wallet) are User Management.
  { segments: ['users'], title: 'User Management', subtitle: l.subtitleUsers },
  { segments: ['customize-message'], title: 'Personalised Messages', subtitle: l.subtitleCustomize },
  { segments: ['manage-reports'], title: 'Reports', subtitle: l.subtitleReports },
  { segments: ['replies'], title: messages.conversations.title, subtitle: messages.conversations.subtitle },
  { segments: ['wallet'], title: 'Wallet', subtitle: l.subtitleWallet },
  { segments: ['profile'], title: 'Profile', subtitle: l.subtitleProfile },
  { segments: ['api-management'], title: 'API & Webhooks', subtitle: l.subtitleApiManagement },
  { segments: ['suppression-list'], title: 'Suppression list', subtitle: l.subtitleSuppressionList },
];

/** Admin screens that are not the user's own (spec 001): checked first under /admin. */
const adminSections: readonly Section[] = [
  { segments: ['users', 'templates'], title: 'User Templates', subtitle: l.subtitleAdminTemplates },
  // One user's other screens (details, wallet, settings): their page headings name the screen.
  { segments: ['users'], title: 'User Management', subtitle: l.subtitleUsers },
  { segments: ['logs'], title: 'Log Management', subtitle: l.subtitleLogs },
  { segments: ['test-notifications'], title: 'Notification Test Page', subtitle: l.subtitleTestNotifications },
  { segments: ['pricing'], title: 'Pricing', subtitle: l.subtitlePricing },
  { segments: ['settings'], title: 'Settings', subtitle: l.subtitleSettings },
];

function find(list: readonly Section[], segments: readonly string[]): Section | undefined {
  return list.find((candidate) => candidate.segments.every((segment) => segments.includes(segment)));
}

export function headerText(pathname: string, isAdmin: boolean): HeaderText {
  const segments = pathname.split('/').filter(Boolean);
  // /admin/templates is the review queue across users, not one user's templates.
  if (segments[0] === 'admin' && segments[1] === 'templates') return { title: 'Template Review', subtitle: l.subtitleTemplateQueue };
  const section = (segments[0] === 'admin' ? find(adminSections, segments) : undefined) ?? find(sections, segments);
  if (section) return { title: section.title, subtitle: section.subtitle };
  return { title: 'Dashboard', subtitle: isAdmin ? l.subtitleAdminDefault : l.subtitleUserDefault };
}
