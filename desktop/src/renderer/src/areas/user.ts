/** The customer's area (/user/*): one chunk, loaded after sign-in. */
export { ApiManagementPage } from '../pages/user/ApiManagementPage';
export { ContactAttributesPage } from '../pages/user/ContactAttributesPage';
export { ContactImportPage } from '../pages/user/ContactImportPage';
export { ContactDetailsPage } from '../pages/user/ContactDetailsPage';
export { ContactsPage } from '../pages/user/ContactsPage';
export { CustomizeMessagePage } from '../pages/user/CustomizeMessagePage';
export { ManageReportsPage } from '../pages/user/ManageReportsPage';
export { QuickSendPage } from '../pages/user/QuickSendPage';
export { RepliesPage } from '../pages/user/RepliesPage';
export { SegmentsPage } from '../pages/user/SegmentsPage';
export { SuppressionListPage } from '../pages/user/SuppressionListPage';
export { TemplateBuilderPage } from '../pages/user/TemplateBuilderPage';
export { TemplatesPage } from '../pages/user/TemplatesPage';
export { UserDashboardPage } from '../pages/user/UserDashboardPage';
export { WalletPage } from '../pages/user/WalletPage';
export { TeamPage } from '../pages/user/TeamPage';
