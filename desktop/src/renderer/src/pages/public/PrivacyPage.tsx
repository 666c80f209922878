import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { messages } from '@shared/messages';
import { usePublicConfig } from '../../context/publicConfig';
import { LegalBlocks, LegalDocument } from '../../components/public/LegalDocument';
import { PublicLayout, publicStyles } from '../../components/public/PublicLayout';
import {
  PRIVACY_LAST_UPDATED,
  buildPrivacyAddendum,
  buildPrivacyProductNotes,
  buildPrivacySections,
} from './content/privacy';

const boxClass =
  'scroll-mt-24 rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900';

export function PrivacyPage(): React.JSX.Element {
  const { brandName, support } = usePublicConfig();
  const content = useMemo(() => {
    const context = { brandName, support };
    return {
      sections: buildPrivacySections(context),
      addendum: buildPrivacyAddendum(context),
      productNotes: buildPrivacyProductNotes(context),
    };
  }, [brandName, support]);

  return (
    <PublicLayout>
      <LegalDocument
        title={messages.publicSite.privacyPolicy}
        lastUpdated={PRIVACY_LAST_UPDATED}
        intro={
          <p>
            How {brandName} collects, uses and protects personal data. We act as a processor for the message content
            you send and as the controller for your account data.
          </p>
        }
        sections={content.sections}
      >
        <section id="jurisdictional-addendum" aria-labelledby="jurisdictional-addendum-heading" className={boxClass}>
          <h2 id="jurisdictional-addendum-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
            Jurisdictional addendum
          </h2>
          <div className="mt-4 space-y-6">
            {content.addendum.map((entry) => (
              <div key={entry.region}>
                <h3 className="text-base font-semibold text-slate-900 dark:text-white">{entry.region}</h3>
                <div className="mt-2">
                  <LegalBlocks blocks={entry.blocks} headingLevel={3} />
                </div>
              </div>
            ))}
          </div>
        </section>

        <section id="product-notes" aria-labelledby="product-notes-heading" className={boxClass}>
          <h2 id="product-notes-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
            Product notes
          </h2>
          <div className="mt-4">
            <LegalBlocks blocks={content.productNotes} />
          </div>
        </section>

        <nav aria-label="Related pages" className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          <Link to="/" className={publicStyles.textLink}>
            {messages.publicSite.backToHome}
          </Link>
          <Link to="/refund-policy" className={publicStyles.textLink}>
            {messages.publicSite.refundPolicy}
          </Link>
          <Link to="/terms" className={publicStyles.textLink}>
            {messages.publicSite.terms}
          </Link>
          <Link to="/contact" className={publicStyles.textLink}>
            {messages.publicSite.contact}
          </Link>
        </nav>
      </LegalDocument>
    </PublicLayout>
  );
}
