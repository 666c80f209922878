import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { messages } from '@shared/messages';
import { usePublicConfig } from '../../context/publicConfig';
import { LegalDocument } from '../../components/public/LegalDocument';
import { PublicLayout, publicStyles } from '../../components/public/PublicLayout';
import { LEGAL_ENTITY } from './content/common';
import { REFUND_LAST_UPDATED, buildRefundSections } from './content/refund';

export function RefundPolicyPage(): React.JSX.Element {
  const { brandName, support } = usePublicConfig();
  const sections = useMemo(() => buildRefundSections({ brandName, support }), [brandName, support]);

  return (
    <PublicLayout>
      <LegalDocument
        title={messages.publicSite.refundPolicy}
        lastUpdated={REFUND_LAST_UPDATED}
        intro={
          <p>
            This policy explains what you can cancel, when {brandName} refunds wallet top-ups and how to raise a billing
            dispute. {brandName} is operated by a {LEGAL_ENTITY.form} based in {LEGAL_ENTITY.city}, {LEGAL_ENTITY.country}.
          </p>
        }
        sections={sections}
      >
        <nav aria-label="Related pages" className="flex flex-wrap items-center gap-x-6 gap-y-3 text-sm">
          <Link to="/" className={`inline-flex items-center gap-1.5 ${publicStyles.textLink}`}>
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            {messages.publicSite.backToHome}
          </Link>
          <Link to="/privacy" className={`inline-flex items-center gap-1.5 ${publicStyles.textLink}`}>
            <ShieldCheck className="h-4 w-4" aria-hidden="true" />
            {messages.publicSite.privacyPolicy}
          </Link>
        </nav>
      </LegalDocument>
    </PublicLayout>
  );
}
