/**
 * GST on wallet top-ups, shared by the server (orders, invoices) and the Wallet page (the tax
 * shown before payment), so both compute the same paise. Money is integer paise throughout.
 *
 * Rounding (docs/decisions/2026-12-07-gst-rounding.md): each tax head is rounded on its own to
 * the nearest paisa, halves up. Exclusive: the tax is computed on the taxable value and added.
 * Inclusive: the tax heads are taken out of the amount paid, and the taxable value is what
 * remains, so taxable + heads equals the amount paid exactly.
 */

export type GstMode = 'exclusive' | 'inclusive' | 'off';

/** State and union-territory codes of the GST registration system (the first two GSTIN digits). */
export const GST_STATES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '25': 'Daman and Diu',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '28': 'Andhra Pradesh (before division)',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
};

export function isGstStateCode(code: string): boolean {
  return Object.hasOwn(GST_STATES, code);
}

/** "36-Telangana", as GSTR-1 writes a place of supply. */
export function placeOfSupplyLabel(code: string): string {
  return `${code}-${GST_STATES[code] ?? 'Unknown'}`;
}

/** What the tax needs to know besides the amount. */
export interface GstTerms {
  mode: GstMode;
  /** The rate in hundredths of a percent: 18 % is 1800. */
  rateBasisPoints: number;
  /** Buyer and supplier in the same state: CGST + SGST, else IGST. */
  intraState: boolean;
}

export interface TaxSplit {
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  /** What the buyer pays. */
  totalPaise: number;
}

/** a × b ÷ c to the nearest integer, halves up, exact for the sizes of money here (below 2^53). */
function roundedRatio(a: number, b: number, c: number): number {
  const product = a * b;
  const quotient = Math.floor(product / c);
  return (product - quotient * c) * 2 >= c ? quotient + 1 : quotient;
}

/**
 * The tax of a top-up of `amountPaise`: in exclusive mode the amount is the taxable value (the
 * credits bought), in inclusive mode it is the amount paid. Off: no tax, the amount is both.
 */
export function computeGst(amountPaise: number, terms: GstTerms): TaxSplit {
  if (!Number.isSafeInteger(amountPaise) || amountPaise < 0) throw new Error(`amount must be whole paise: ${amountPaise}`);
  const rate = terms.rateBasisPoints;
  if (terms.mode === 'off' || rate === 0) return { taxablePaise: amountPaise, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise: amountPaise };
  if (terms.mode === 'exclusive') {
    const taxable = amountPaise;
    if (terms.intraState) {
      const half = roundedRatio(taxable, rate, 20_000);
      return { taxablePaise: taxable, cgstPaise: half, sgstPaise: half, igstPaise: 0, totalPaise: taxable + 2 * half };
    }
    const igst = roundedRatio(taxable, rate, 10_000);
    return { taxablePaise: taxable, cgstPaise: 0, sgstPaise: 0, igstPaise: igst, totalPaise: taxable + igst };
  }
  const total = amountPaise;
  if (terms.intraState) {
    const half = roundedRatio(total, rate, 2 * (10_000 + rate));
    return { taxablePaise: total - 2 * half, cgstPaise: half, sgstPaise: half, igstPaise: 0, totalPaise: total };
  }
  const igst = roundedRatio(total, rate, 10_000 + rate);
  return { taxablePaise: total - igst, cgstPaise: 0, sgstPaise: 0, igstPaise: igst, totalPaise: total };
}

/** Paise as a rupee string exact to the paisa, no grouping: 118000 -> "1180.00". */
export function paiseToRupeeString(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * The Indian financial year (April to March) a day belongs to, by its IST calendar date
 * (YYYY-MM-DD): 2026-04-01 and 2027-03-31 are both in "2026-27".
 */
export function financialYearOf(istDay: string): { label: string; short: string } {
  const year = Number(istDay.slice(0, 4));
  const month = Number(istDay.slice(5, 7));
  const start = month >= 4 ? year : year - 1;
  const end2 = String((start + 1) % 100).padStart(2, '0');
  return { label: `${start}-${end2}`, short: `${String(start % 100).padStart(2, '0')}${end2}` };
}

/** Tax invoices must carry a number of at most 16 characters (CGST Rules, rule 46(b)). */
export const TAX_DOCUMENT_NUMBER_MAX = 16;

export type TaxDocumentSeries = 'invoice' | 'credit_note';

/**
 * A tax document's number: prefix, the series' marker (credit notes "CN"), the financial year's
 * four digits, a slash and the sequence padded to five digits: SND2627/00001, SNDCN2627/00001.
 */
export function taxDocumentNumber(prefix: string, series: TaxDocumentSeries, fyShort: string, sequence: number): string {
  const number = `${prefix}${series === 'credit_note' ? 'CN' : ''}${fyShort}/${String(sequence).padStart(5, '0')}`;
  if (number.length > TAX_DOCUMENT_NUMBER_MAX) throw new Error(`tax document number ${number} is longer than ${TAX_DOCUMENT_NUMBER_MAX} characters`);
  return number;
}

const ONES = ['', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve', 'Thirteen', 'Fourteen', 'Fifteen', 'Sixteen', 'Seventeen', 'Eighteen', 'Nineteen'];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  const tens = TENS[Math.floor(n / 10)]!;
  return n % 10 ? `${tens} ${ONES[n % 10]}` : tens;
}

function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  return [hundreds ? `${ONES[hundreds]} Hundred` : '', rest ? belowHundred(rest) : ''].filter(Boolean).join(' ');
}

/** A whole number in Indian words: 1,23,45,678 -> "One Crore Twenty Three Lakh Forty Five Thousand Six Hundred Seventy Eight". */
export function indianNumberInWords(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a whole number: ${value}`);
  if (value === 0) return 'Zero';
  const crore = Math.floor(value / 10_000_000);
  const lakh = Math.floor((value % 10_000_000) / 100_000);
  const thousand = Math.floor((value % 100_000) / 1000);
  const rest = value % 1000;
  return [
    crore ? `${indianNumberInWords(crore)} Crore` : '',
    lakh ? `${belowHundred(lakh)} Lakh` : '',
    thousand ? `${belowHundred(thousand)} Thousand` : '',
    rest ? belowThousand(rest) : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** "Indian Rupees One Thousand One Hundred Eighty and Fifty Paise Only" */
export function rupeesInWords(paise: number): string {
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  return `Indian Rupees ${indianNumberInWords(rupees)}${rest ? ` and ${belowHundred(rest)} Paise` : ''} Only`;
}
