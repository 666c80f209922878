import { useMemo, useSyncExternalStore } from 'react';
import { usePublicConfig } from '../../context/publicConfig';
import { LandingFooter, LandingHeader } from '../../components/public/PublicLayout';
import { ApiSection, type ApiSamples } from '../../components/public/landing/ApiSection';
import { Features } from '../../components/public/landing/Features';
import { FinalCallToAction } from '../../components/public/landing/FinalCallToAction';
import { Hero } from '../../components/public/landing/Hero';
import { HowItWorks } from '../../components/public/landing/HowItWorks';
import { PersonalisationShowcase } from '../../components/public/landing/PersonalisationShowcase';
import { SampleFigures } from '../../components/public/landing/SampleFigures';
import { WalletSection } from '../../components/public/landing/WalletSection';
import { REPORTS_ENDPOINT, SEND_ENDPOINT, SEND_EXAMPLE_RESPONSE, apiOrigin, buildSendSamples } from './content/docs';

const neverChanges = () => () => undefined;

/**
 * The origin shown in the API samples. The prerendered page (scripts/prerender) has no location,
 * so hydration starts from the placeholder the server used and React then renders the real one.
 */
function useSampleOrigin(): string {
  return useSyncExternalStore(
    neverChanges,
    () => apiOrigin(window.location),
    () => apiOrigin(undefined),
  );
}

/** The public landing page (spec §1 and §2.3), with its own header and footer; its sections are in components/public/landing. */
export function LandingPage(): React.JSX.Element {
  const { brandName } = usePublicConfig();
  const origin = useSampleOrigin();
  const apiSamples = useMemo<ApiSamples>(
    () => ({ curl: buildSendSamples(origin).curl, exampleResponse: SEND_EXAMPLE_RESPONSE, sendEndpoint: SEND_ENDPOINT, reportsEndpoint: REPORTS_ENDPOINT }),
    [origin],
  );

  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <LandingHeader />
      <main className="flex-1">
        <Hero brandName={brandName} />
        <SampleFigures />
        <Features />
        <PersonalisationShowcase />
        <HowItWorks />
        <ApiSection samples={apiSamples} />
        <WalletSection brandName={brandName} />
        <FinalCallToAction brandName={brandName} />
      </main>
      <LandingFooter />
    </div>
  );
}
