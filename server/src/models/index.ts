export { BaseModel, toDate } from './BaseModel';
export { User, usernameKey } from './User';
export { Session, type SessionKind } from './Session';
export { PasswordReset } from './PasswordReset';
export { CreditTransaction } from './CreditTransaction';
export { AuditLogEntry } from './AuditLogEntry';
export { Payment, type PaymentProvider, type PaymentStatus } from './Payment';
export { Template } from './Template';
