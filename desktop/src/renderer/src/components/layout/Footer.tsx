import { CLAIMS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { usePublicConfig } from '../../context/publicConfig';

export function Footer() {
  const { brandName } = usePublicConfig();
  return (
    <footer className="border-t border-slate-200 bg-white px-4 py-4 text-sm text-slate-500 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400 sm:px-6">
      <div className="flex flex-col items-center justify-between gap-2 sm:flex-row">
        <p>
          <span className="font-semibold text-slate-700 dark:text-slate-200">{brandName}</span>
          <span aria-hidden="true"> · </span>
          <span>{messages.layout.footerTagline}</span>
        </p>
        <p>{fillMessage(messages.publicSite.copyright, { year: CLAIMS.copyrightYear, brand: brandName })}</p>
        <p>{messages.layout.footerPoweredBy}</p>
      </div>
    </footer>
  );
}
