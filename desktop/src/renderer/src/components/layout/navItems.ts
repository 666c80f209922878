import {
  Ban,
  BarChart3,
  Code2,
  FileSpreadsheet,
  FileCheck2,
  FileText,
  ReceiptIndianRupee,
  Scale,
  IndianRupee,
  LayoutDashboard,
  MessageSquareReply,
  ScrollText,
  Contact,
  Webhook,
  Send,
  UserCircle,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { Role } from '@shared/constants';
import { messages } from '@shared/messages';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** False for entries the mobile drawer leaves out (spec 000 §2.6: admin Pricing). */
  inDrawer?: boolean;
  /** A count shown beside the label (the admin's templates waiting for review). */
  badge?: 'pendingTemplates';
}

/** The figures behind the badges, as the layout read them. */
export type NavBadgeCounts = Partial<Record<NonNullable<NavItem['badge']>, number>>;

/** Spec 000 §2.6, in the spec's order. */
export const userNav: readonly NavItem[] = [
  { to: '/user/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/user/whatsapp-bulk', label: 'WhatsApp Quick Send', icon: Send },
  { to: '/user/api-management', label: 'API Management', icon: Code2 },
  { to: '/user/customize-message', label: 'Customize Message', icon: FileSpreadsheet },
  { to: '/user/templates', label: 'Templates', icon: FileText },
  { to: '/user/manage-reports', label: 'Manage Reports', icon: BarChart3 },
  { to: '/user/replies', label: messages.conversations.menuItem, icon: MessageSquareReply },
  { to: '/user/contacts', label: messages.contactScreens.menuItem, icon: Contact },
  { to: '/user/suppression-list', label: 'Suppression list', icon: Ban },
  { to: '/user/profile', label: 'Profile', icon: UserCircle },
];

export const adminNav: readonly NavItem[] = [
  { to: '/admin/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/admin/users', label: 'Users', icon: Users },
  { to: '/admin/templates', label: 'Template Review', icon: FileCheck2, badge: 'pendingTemplates' },
  { to: '/admin/logs', label: 'Log Management', icon: ScrollText },
  { to: '/admin/webhook-events', label: messages.unknownWebhookEvents.nav, icon: Webhook },
  { to: '/admin/reconciliation', label: messages.reconciliation.title, icon: Scale },
  { to: '/admin/invoices', label: messages.invoices.registerTitle, icon: ReceiptIndianRupee },
  { to: '/admin/pricing', label: 'Pricing Management', icon: IndianRupee, inDrawer: false },
  { to: '/admin/profile', label: 'Profile', icon: UserCircle },
];

export function navFor(role: Role, place: 'sidebar' | 'drawer'): readonly NavItem[] {
  const items = role === 'admin' ? adminNav : userNav;
  return place === 'drawer' ? items.filter((item) => item.inDrawer !== false) : items;
}

export function roleLabel(role: Role): string {
  return role === 'admin' ? 'Admin' : 'User';
}
