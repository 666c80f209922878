/** The public pages other than the landing page and the docs: contact and the legal texts. */
export { ContactPage } from '../pages/public/ContactPage';
export { PrivacyPage } from '../pages/public/PrivacyPage';
export { RefundPolicyPage } from '../pages/public/RefundPolicyPage';
export { TermsPage } from '../pages/public/TermsPage';
