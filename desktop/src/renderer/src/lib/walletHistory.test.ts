import { describe, expect, it } from 'vitest';
import type { TWalletHistoryEntry } from '@shared/walletHistory';
import { walletHistoryCsv, walletHistoryFilename } from './walletHistory';

const entry = (overrides: Partial<TWalletHistoryEntry>): TWalletHistoryEntry => ({
  id: '1',
  kind: 'topup',
  type: 'TOPUP_ADD',
  title: 'Wallet top-up',
  description: 'Wallet top-up via Razorpay',
  amount: 1000,
  amountText: '+₹1,000.00',
  balanceAfter: 1000,
  balanceAfterText: '₹1,000.00',
  createdAt: '2026-11-24T18:45:00.000Z',
  templateName: null,
  campaignId: null,
  receiptUrl: '/api/wallet/topups/1/receipt.pdf',
  ...overrides,
});

describe('wallet history CSV', () => {
  it('labels the IST column, writes IST wall-clock times and credits and debits as plain numbers', () => {
    const csv = walletHistoryCsv([
      entry({ id: '2', kind: 'send', type: 'CAMPAIGN_DEBIT', title: 'Messages sent', description: 'Campaign "Diwali, 2026"', amount: -1.6, balanceAfter: 998.4, campaignId: 7, receiptUrl: null }),
      entry({}),
    ]);
    const lines = csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Date (IST),Entry,Details,Credit (INR),Debit (INR),Balance After (INR),Reference');
    expect(lines[1]).toBe('2026-11-25 00:15:00,Messages sent,"Campaign ""Diwali, 2026""",,1.60,998.40,Campaign 7');
    expect(lines[2]).toBe('2026-11-25 00:15:00,Wallet top-up,Wallet top-up via Razorpay,1000.00,,1000.00,');
  });

  it('names the file after the IST day', () => {
    expect(walletHistoryFilename(new Date('2026-11-24T19:00:00.000Z'))).toBe('wallet_history_2026-11-25.csv');
  });
});
