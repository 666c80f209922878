/** Log Management (spec 001 §3 "Log cleanup stats"). */
export interface TLogCleanupStats {
  messageLogsCount: number;
  campaignLogsCount: number;
  totalCount: number;
  thresholdDate: string;
}

export interface TLogCleanupRun {
  startedAt: string;
  finishedAt: string | null;
  totalDeleted: number;
  messagesDeleted: number;
  campaignsDeleted: number;
  error: string | null;
}

export interface TLogCleanupStatsResponse {
  success: true;
  stats: TLogCleanupStats;
  retentionDays: number;
  lastDailyRun: TLogCleanupRun | null;
}

export interface TLogCleanupResponse {
  success: true;
  message: string;
  deleted: { totalDeleted: number; messagesDeleted: number; campaignsDeleted: number; statusEventsDeleted: number; filesDeleted: number };
}
