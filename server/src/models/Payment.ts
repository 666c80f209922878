import { BaseModel } from './BaseModel';

export type PaymentProvider = 'razorpay' | 'sandbox';
export type PaymentStatus = 'created' | 'failed' | 'paid';

export class Payment extends BaseModel {
  static override tableName = 'payments';
  static override timestampAttributes = ['createdAt', 'updatedAt', 'paidAt'] as const;

  id!: number;
  userId!: number;
  provider!: PaymentProvider;
  orderId!: string;
  paymentId!: string | null;
  amountPaise!: number;
  creditUnits!: number;
  currency!: string;
  status!: PaymentStatus;
  creditedBy!: 'verify' | 'webhook' | null;
  createdAt!: Date;
  updatedAt!: Date;
  paidAt!: Date | null;
  /** The tax the order was priced with; null without GST. */
  taxablePaise!: number | null;
  cgstPaise!: number | null;
  sgstPaise!: number | null;
  igstPaise!: number | null;
  /** The buyer's state code when the order was priced. */
  placeOfSupply!: string | null;
  /** The member who started the top-up; null for orders made before teams existed. */
  actorUserId!: number | null;
}
