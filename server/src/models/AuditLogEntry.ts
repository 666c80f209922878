import { BaseModel } from './BaseModel';

export class AuditLogEntry extends BaseModel {
  static override tableName = 'audit_log';
  static override timestampAttributes = ['createdAt'] as const;

  id!: number;
  actorUserId!: number | null;
  action!: string;
  targetType!: string | null;
  targetId!: string | null;
  details!: string | null;
  ip!: string | null;
  createdAt!: Date;
}
