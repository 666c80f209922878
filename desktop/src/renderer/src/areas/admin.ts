/** The admin area (/admin/*): one chunk, never loaded for a visitor or a customer. */
export { AdminDashboardPage } from '../pages/admin/AdminDashboardPage';
export { AdminLogsPage } from '../pages/admin/AdminLogsPage';
export { AdminPricingPage } from '../pages/admin/AdminPricingPage';
export { AdminSettingsPage } from '../pages/admin/AdminSettingsPage';
export { AdminTestNotificationsPage } from '../pages/admin/AdminTestNotificationsPage';
export { AdminUserDetailsPage } from '../pages/admin/AdminUserDetailsPage';
export { AdminUserSettingsPage } from '../pages/admin/AdminUserSettingsPage';
export { AdminUserTemplatesPage } from '../pages/admin/AdminUserTemplatesPage';
export { AdminUsersPage } from '../pages/admin/AdminUsersPage';
export { AdminWalletPage } from '../pages/admin/AdminWalletPage';
export { AdminTemplateQueuePage } from '../pages/admin/AdminTemplateQueuePage';
export { AdminWebhookEventsPage } from '../pages/admin/AdminWebhookEventsPage';
export { AdminMetaBillPage } from '../pages/admin/AdminMetaBillPage';
export { AdminInvoicesPage } from '../pages/admin/AdminInvoicesPage';
